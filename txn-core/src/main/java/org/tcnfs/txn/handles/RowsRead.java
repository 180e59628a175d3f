package org.tcnfs.txn.handles;

import java.util.Arrays;
import java.util.function.BiConsumer;
import org.lmdbjava.Dbi;

/**
 * The rows one read of the handle table asked for, recorded by a store wrapped around the read's own ({@link #over}):
 * the table and key of every point read, in order. A read is a function of the rows it was given, so an answer read
 * from the committed table is also what a transaction's buffer would answer as long as the buffer changed none of
 * those rows ({@link TxnBuffer#changesNoneOf}); {@link HandleTable#cachedRead} keeps them beside the answer for that.
 * A read that scans a range is not recorded by its keys: {@link #scanned()} then says so and no buffer may use it.
 *
 * <p>Filled by one reader during one read, then only read (by any thread, once the cache published it); the keys are
 * the reader's own arrays, never changed after a read hands them over ({@link Store}).
 */
final class RowsRead {
    private Dbi<?>[] tables = new Dbi<?>[4];
    private byte[][] keys = new byte[4][];
    private int count;
    private boolean scanned;

    /** {@code beneath}, recording every row read through it here. */
    Store over(Store beneath) {
        return new Store.ReadOnly() {
            @Override
            public byte[] get(Dbi<byte[]> dbi, byte[] key) {
                record(dbi, key);
                return beneath.get(dbi, key);
            }

            @Override
            public void scan(Dbi<byte[]> dbi, byte[] prefix, BiConsumer<byte[], byte[]> action) {
                scanned = true;
                beneath.scan(dbi, prefix, action);
            }
        };
    }

    private void record(Dbi<?> dbi, byte[] key) {
        if (count == keys.length) {
            tables = Arrays.copyOf(tables, count * 2);
            keys = Arrays.copyOf(keys, count * 2);
        }
        tables[count] = dbi;
        keys[count] = key;
        count++;
    }

    /** Whether the read scanned a range of rows (its rows are then not all named here). */
    boolean scanned() {
        return scanned;
    }

    /** How many point reads were recorded. */
    int size() {
        return count;
    }

    /** The table of the {@code i}th point read. */
    Dbi<?> table(int i) {
        return tables[i];
    }

    /** The key of the {@code i}th point read. */
    byte[] key(int i) {
        return keys[i];
    }
}
