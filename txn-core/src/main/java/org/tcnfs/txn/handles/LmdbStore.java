package org.tcnfs.txn.handles;

import java.util.function.BiConsumer;
import org.lmdbjava.CursorIterable;
import org.lmdbjava.Dbi;
import org.lmdbjava.KeyRange;
import org.lmdbjava.LmdbException;
import org.lmdbjava.PutFlags;
import org.lmdbjava.Txn;

/** Rows read and written in one LMDB transaction (read-only for a snapshot). */
final class LmdbStore implements Store {
    private final Txn<byte[]> txn;

    LmdbStore(Txn<byte[]> txn) {
        this.txn = txn;
    }

    Txn<byte[]> txn() {
        return txn;
    }

    @Override
    public byte[] get(Dbi<byte[]> dbi, byte[] key) {
        try {
            return dbi.get(txn, key);
        } catch (LmdbException e) {
            throw HandleTable.translate("reading the handle table", e);
        }
    }

    @Override
    public void put(Dbi<byte[]> dbi, byte[] key, byte[] value) {
        try {
            dbi.put(txn, key, value, new PutFlags[0]);
        } catch (LmdbException e) {
            throw HandleTable.translate("writing the handle table", e);
        }
    }

    @Override
    public boolean delete(Dbi<byte[]> dbi, byte[] key) {
        try {
            return dbi.delete(txn, key);
        } catch (LmdbException e) {
            throw HandleTable.translate("writing the handle table", e);
        }
    }

    @Override
    public void scan(Dbi<byte[]> dbi, byte[] prefix, BiConsumer<byte[], byte[]> action) {
        KeyRange<byte[]> range = prefix.length == 0 ? KeyRange.all() : KeyRange.atLeast(prefix);
        try (CursorIterable<byte[]> entries = dbi.iterate(txn, range)) {
            for (CursorIterable.KeyVal<byte[]> entry : entries) {
                if (!Store.startsWith(entry.key(), prefix)) {
                    break;
                }
                action.accept(entry.key(), entry.val());
            }
        } catch (LmdbException e) {
            throw HandleTable.translate("iterating the handle table", e);
        }
    }
}
