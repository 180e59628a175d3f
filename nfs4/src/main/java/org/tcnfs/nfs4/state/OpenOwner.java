package org.tcnfs.nfs4.state;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * An open owner of a client and its opens (one per file). In NFSv4.1 an open owner exists exactly as long
 * as it has opens. NFSv4.0 will keep here what it needs per open owner: the last sequence id, the cached
 * reply for a retransmission, and whether OPEN_CONFIRM ran.
 *
 * <p>{@link #states} is changed only inside the owning {@link ClientState}'s map operations for this
 * owner, which serialize per owner.
 */
final class OpenOwner {
    final StateOwner id;
    final Set<OpenState> states = new LinkedHashSet<>();

    OpenOwner(StateOwner id) {
        this.id = id;
    }
}
