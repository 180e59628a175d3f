package org.tcnfs.txn.handles;

import java.util.function.BiConsumer;
import org.lmdbjava.Dbi;

/**
 * Where a view of the handle table reads and writes its rows: an LMDB transaction ({@link LmdbStore}) or
 * a transaction's in-memory buffer over the committed table ({@link OverlayStore}). Keys and values are
 * never changed after they are handed over.
 */
interface Store {

    /** The value under {@code key}, or {@code null}. */
    byte[] get(Dbi<byte[]> dbi, byte[] key);

    /** Stores {@code value} under {@code key}, replacing any value. */
    void put(Dbi<byte[]> dbi, byte[] key, byte[] value);

    /** Removes {@code key}; whether it was there. */
    boolean delete(Dbi<byte[]> dbi, byte[] key);

    /**
     * Calls {@code action} for every row whose key starts with {@code prefix} (all rows for an empty
     * prefix), in unsigned byte order of the keys.
     */
    void scan(Dbi<byte[]> dbi, byte[] prefix, BiConsumer<byte[], byte[]> action);

    /** A store that is only read (a snapshot): its {@link #put} and {@link #delete} refuse. */
    interface ReadOnly extends Store {
        @Override
        default void put(Dbi<byte[]> dbi, byte[] key, byte[] value) {
            throw new UnsupportedOperationException("a snapshot is read-only");
        }

        @Override
        default boolean delete(Dbi<byte[]> dbi, byte[] key) {
            throw new UnsupportedOperationException("a snapshot is read-only");
        }
    }

    /** Whether a key starts with a prefix. */
    static boolean startsWith(byte[] key, byte[] prefix) {
        if (key.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (key[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
