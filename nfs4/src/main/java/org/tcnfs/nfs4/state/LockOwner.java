package org.tcnfs.nfs4.state;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A lock owner of a client and its lock states (one per file). NFSv4.0 will keep its last lock sequence id
 * here, and RELEASE_LOCKOWNER will find the owner's state through it.
 *
 * <p>{@link #states} is changed only inside the owning {@link ClientState}'s map operations for this
 * owner, which serialize per owner.
 */
final class LockOwner {
    final StateOwner id;
    final Set<LockState> states = new LinkedHashSet<>();

    LockOwner(StateOwner id) {
        this.id = id;
    }
}
