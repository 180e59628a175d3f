package org.tcnfs.txn.handles;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.lmdbjava.Dbi;

/**
 * Changes kept in memory over another store: reads see the changes first, then the store beneath; nothing
 * reaches the store beneath until {@link #mergeInto} or {@link #applyTo}. A deletion is kept as a
 * tombstone, so a row deleted here reads as absent even while the store beneath still has it.
 *
 * <p>Not thread-safe: a transaction's buffer is used by the thread that runs its compound.
 */
final class OverlayStore implements Store {
    private static final byte[] TOMBSTONE = new byte[0];

    private final Store base;
    private final Map<Dbi<byte[]>, TreeMap<byte[], byte[]>> changes = new HashMap<>();

    OverlayStore(Store base) {
        this.base = Objects.requireNonNull(base, "base");
    }

    @Override
    public byte[] get(Dbi<byte[]> dbi, byte[] key) {
        return get(base, dbi, key);
    }

    private byte[] get(Store beneath, Dbi<byte[]> dbi, byte[] key) {
        TreeMap<byte[], byte[]> rows = changes.get(dbi);
        if (rows != null) {
            byte[] value = rows.get(key);
            if (value != null) {
                return value == TOMBSTONE ? null : value.clone();
            }
        }
        return beneath.get(dbi, key);
    }

    @Override
    public void put(Dbi<byte[]> dbi, byte[] key, byte[] value) {
        rows(dbi).put(key.clone(), value.clone());
    }

    @Override
    public boolean delete(Dbi<byte[]> dbi, byte[] key) {
        boolean present = get(dbi, key) != null;
        rows(dbi).put(key.clone(), TOMBSTONE);
        return present;
    }

    @Override
    public void scan(Dbi<byte[]> dbi, byte[] prefix, BiConsumer<byte[], byte[]> action) {
        scan(base, dbi, prefix, action);
    }

    private void scan(Store beneath, Dbi<byte[]> dbi, byte[] prefix, BiConsumer<byte[], byte[]> action) {
        TreeMap<byte[], byte[]> merged = new TreeMap<>(Arrays::compareUnsigned);
        beneath.scan(dbi, prefix, merged::put);
        TreeMap<byte[], byte[]> rows = changes.get(dbi);
        if (rows != null) {
            for (Map.Entry<byte[], byte[]> row : rows.tailMap(prefix, true).entrySet()) {
                if (!Store.startsWith(row.getKey(), prefix)) {
                    break;
                }
                if (row.getValue() == TOMBSTONE) {
                    merged.remove(row.getKey());
                } else {
                    merged.put(row.getKey(), row.getValue());
                }
            }
        }
        merged.forEach(action);
    }

    /**
     * A read-only view of this overlay's changes over {@code beneath} instead of its own base (which must
     * hold the same rows): lets a snapshot read the committed table through one read transaction rather
     * than one per row. The view sees later changes of this overlay too.
     */
    Store readingThrough(Store beneath) {
        Objects.requireNonNull(beneath, "beneath");
        return new Store.ReadOnly() {
            @Override
            public byte[] get(Dbi<byte[]> dbi, byte[] key) {
                return OverlayStore.this.get(beneath, dbi, key);
            }

            @Override
            public void scan(Dbi<byte[]> dbi, byte[] prefix, BiConsumer<byte[], byte[]> action) {
                OverlayStore.this.scan(beneath, dbi, prefix, action);
            }
        };
    }

    /** Whether a change of the row under {@code key} (a new value or a deletion) is kept here. */
    boolean holds(Dbi<?> dbi, byte[] key) {
        TreeMap<byte[], byte[]> rows = changes.get(dbi);
        return rows != null && rows.containsKey(key);
    }

    /**
     * Whether no change is kept: whether no table has rows here, as a table comes in with its first row and no row
     * leaves one (a deletion is a tombstone; only {@link #clear} and {@link #mergeInto} empty the overlay, all
     * tables at once). Asked by every cached read of the handle table on a bound thread: no iterator.
     */
    boolean isEmpty() {
        return changes.isEmpty();
    }

    /** Number of rows changed. */
    int size() {
        int size = 0;
        for (TreeMap<byte[], byte[]> rows : changes.values()) {
            size += rows.size();
        }
        return size;
    }

    /** Writes every kept change into {@code target} (puts and deletes), leaving this overlay as it is. */
    void applyTo(Store target) {
        forEachChange((dbi, key, value) -> {
            if (value == null) {
                target.delete(dbi, key);
            } else {
                target.put(dbi, key, value);
            }
        });
    }

    /** One kept change: a row's table, key, and new value, or null for a removal. */
    @FunctionalInterface
    interface Change {
        void accept(Dbi<byte[]> dbi, byte[] key, byte[] valueOrNull);
    }

    /** Hands every kept change to {@code change} (the arrays are this overlay's own: not to be changed). */
    void forEachChange(Change change) {
        changes.forEach((dbi, rows) -> rows.forEach((key, value) -> change.accept(dbi, key,
                value == TOMBSTONE ? null : value)));
    }

    /** Moves every kept change into {@code target}, another overlay, and forgets them here. */
    void mergeInto(OverlayStore target) {
        changes.forEach((dbi, rows) -> target.rows(dbi).putAll(rows));
        changes.clear();
    }

    /** Forgets every kept change. */
    void clear() {
        changes.clear();
    }

    private TreeMap<byte[], byte[]> rows(Dbi<byte[]> dbi) {
        return changes.computeIfAbsent(dbi, d -> new TreeMap<>(Arrays::compareUnsigned));
    }
}
