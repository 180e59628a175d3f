package org.tcnfs.txn.lock;

import java.util.Objects;

/**
 * One key a compound wants locked, with its mode. The lock manager adds the read locks on the key's
 * ancestors itself.
 *
 * @param key  what to lock
 * @param mode how
 */
public record LockRequest(LockKey key, LockMode mode) {

    public LockRequest {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(mode, "mode");
    }

    /** A shared lock on {@code key}. */
    public static LockRequest read(LockKey key) {
        return new LockRequest(key, LockMode.READ);
    }

    /** An exclusive lock on {@code key}. */
    public static LockRequest write(LockKey key) {
        return new LockRequest(key, LockMode.WRITE);
    }
}
