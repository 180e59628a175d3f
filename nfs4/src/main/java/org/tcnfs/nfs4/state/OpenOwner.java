package org.tcnfs.nfs4.state;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * An open owner of a client and its opens (one per file). In NFSv4.1 an open owner exists exactly as long
 * as it has opens. An NFSv4.0 open owner also keeps its {@link OwnerSequence} (last seqid, last reply,
 * whether OPEN_CONFIRM ran), so it outlives its last CLOSE until it has been idle for a lease
 * ({@link OpenStateTable#pruneIdleOwners}).
 *
 * <p>{@link #states} is changed only inside the owning {@link ClientState}'s map operations for this
 * owner, which serialize per owner.
 */
final class OpenOwner {
    final StateOwner id;
    /** NFSv4.0 only; {@code null} for NFSv4.1. */
    final OwnerSequence sequence;
    final Set<OpenState> states = new LinkedHashSet<>();

    OpenOwner(StateOwner id, OwnerSequence sequence) {
        this.id = id;
        this.sequence = sequence;
    }
}
