package org.tcnfs.proto;

import java.util.Objects;

/**
 * One lock key of a transaction's plan, in the lock manager's string form (DESIGN.md step 2).
 *
 * @param key the key; any string the lock manager uses (a path relative to the export root, for instance),
 *     without NUL
 * @param mode how the transaction holds it
 */
public record LockKey(String key, LockMode mode) {

    public LockKey {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(mode, "mode");
        if (key.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("lock key contains NUL");
        }
    }

    /** A key held shared. */
    public static LockKey read(String key) {
        return new LockKey(key, LockMode.READ);
    }

    /** A key held exclusively. */
    public static LockKey write(String key) {
        return new LockKey(key, LockMode.WRITE);
    }
}
