package org.tcnfs.nfs4.state;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A lock owner of a client and its lock states (one per file). An NFSv4.0 lock owner also keeps its
 * {@link OwnerSequence} (last lock seqid and reply), until RELEASE_LOCKOWNER or until it has been idle and
 * without state for a lease.
 *
 * <p>{@link #states} is changed only inside the owning {@link ClientState}'s map operations for this
 * owner, which serialize per owner.
 */
final class LockOwner {
    final StateOwner id;
    /** NFSv4.0 only; {@code null} for NFSv4.1. */
    final OwnerSequence sequence;
    final Set<LockState> states = new LinkedHashSet<>();

    LockOwner(StateOwner id, OwnerSequence sequence) {
        this.id = id;
        this.sequence = sequence;
    }
}
