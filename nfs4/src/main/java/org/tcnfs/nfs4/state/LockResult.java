package org.tcnfs.nfs4.state;

import java.util.Objects;

/** What a LOCK request got: the lock stateid, or the lock that is in the way. */
public sealed interface LockResult permits LockResult.Granted, LockResult.Denied {

    /** The lock was taken; {@code stateId} is the lock owner's lock stateid for the file. */
    record Granted(StateId stateId) implements LockResult {
        public Granted {
            Objects.requireNonNull(stateId, "stateId");
        }
    }

    /** Another owner's lock conflicts; nothing changed. */
    record Denied(ByteRangeLock conflict) implements LockResult {
        public Denied {
            Objects.requireNonNull(conflict, "conflict");
        }
    }
}
