package org.tcnfs.txn.handles;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.lmdbjava.Dbi;

/**
 * Handle rows of plain compounds on {@code async} exports that are visible to every reader at once but reach LMDB
 * only with the next LMDB commit, at the latest the {@link LateDurability} flush within its delay
 * (docs/durability.md, "The async export option"). Such a compound's reply then waits for no flush of the table.
 *
 * <p><b>Visibility.</b> Every reader of the committed table ({@link HandleTable#read()}, a TXN buffer's reads) looks
 * here before LMDB ({@link #over}); the newest change of a key wins, a removal is kept as a tombstone.
 *
 * <p><b>Order.</b> Every LMDB write transaction applies the rows still waiting first ({@link #drainInto}), so any
 * commit, a transaction's included, carries every row it may stand on, and LMDB commits are serial: a cut keeps a
 * prefix of the changes, never a row without the rows committed before it. After the commit the rows stay here,
 * marked committed, until no reader whose LMDB snapshot began before that commit is left ({@link #enter}: two reader
 * counters, flipped like an epoch), then they are dropped; a key the commit itself wrote is updated here to the
 * committed value, so a reader never sees an older value here than in LMDB.
 *
 * <p><b>Bounds.</b> At most {@code maxRows} rows (waiting or committed) are kept; a compound whose rows do not fit
 * is refused ({@link #tryAdd} says false) and commits to LMDB itself, as before.
 *
 * <p>Thread-safe. Rows are added without a lock; commits and reclamation run under this object's monitor.
 */
final class PendingRows {
    private static final byte[] TOMBSTONE = new byte[0];
    private static final int WAITING = 0;
    private static final int COMMITTED = 1;
    private static final int SUPERSEDED = 2;

    /** A reader that does not look here: the table had no row kept when it began. */
    static final long NO_READER = -1;

    /** One value of one key. */
    private static final class Entry {
        final byte[] value;
        final AtomicInteger state;

        Entry(byte[] value, int state) {
            this.value = value;
            this.state = new AtomicInteger(state);
        }
    }

    /** A row as kept, for the commit that carries it and for its later removal. */
    private record Row(Dbi<byte[]> dbi, byte[] key, Entry entry) {
    }

    /** The rows a {@link #drainInto} applied and the changes its batch made after them. */
    static final class Drain {
        private final List<Row> applied;
        /** Used by the batch's thread only. */
        private final Map<Dbi<byte[]>, TreeMap<byte[], byte[]>> written = new java.util.HashMap<>();

        private Drain(List<Row> applied) {
            this.applied = applied;
        }

        /** {@code store} (the batch's LMDB transaction), noting what is written through it. */
        Store recording(Store store) {
            return new Store() {
                @Override
                public byte[] get(Dbi<byte[]> dbi, byte[] key) {
                    return store.get(dbi, key);
                }

                @Override
                public void put(Dbi<byte[]> dbi, byte[] key, byte[] value) {
                    store.put(dbi, key, value);
                    rows(dbi).put(key.clone(), value.clone());
                }

                @Override
                public boolean delete(Dbi<byte[]> dbi, byte[] key) {
                    boolean present = store.delete(dbi, key);
                    rows(dbi).put(key.clone(), TOMBSTONE);
                    return present;
                }

                @Override
                public void scan(Dbi<byte[]> dbi, byte[] prefix, BiConsumer<byte[], byte[]> action) {
                    store.scan(dbi, prefix, action);
                }
            };
        }

        private TreeMap<byte[], byte[]> rows(Dbi<byte[]> dbi) {
            return written.computeIfAbsent(dbi, d -> new TreeMap<>(Arrays::compareUnsigned));
        }
    }

    private final int maxRows;
    private final Map<Dbi<byte[]>, ConcurrentSkipListMap<byte[], Entry>> rows = new ConcurrentHashMap<>();
    /** Entries in {@link #rows}. */
    private final AtomicInteger size = new AtomicInteger();
    /** Entries waiting for an LMDB commit. */
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong epoch = new AtomicLong();
    private final AtomicLong[] readers = {new AtomicLong(), new AtomicLong()};
    /** Committed rows not yet waiting for a reader epoch to end. Guarded by {@code this}. */
    private List<Row> committed = new ArrayList<>();
    /** Committed rows waiting until the readers of {@link #retiringEpoch} are gone. Guarded by {@code this}. */
    private List<Row> retiring;
    private long retiringEpoch;

    /** @param maxRows most rows kept at once; 0 keeps none (every {@link #tryAdd} says false) */
    PendingRows(int maxRows) {
        if (maxRows < 0) {
            throw new IllegalArgumentException("maxRows must not be negative: " + maxRows);
        }
        this.maxRows = maxRows;
    }

    /** Whether rows are kept at all. */
    boolean enabled() {
        return maxRows > 0;
    }

    /** Rows kept (waiting or committed). */
    int size() {
        return size.get();
    }

    /** Rows that no LMDB commit carried yet. */
    int waiting() {
        return waiting.get();
    }

    // ---- adding --------------------------------------------------------------------------------------------

    /**
     * Keeps every change of {@code changes} (a compound's buffer), visible to all readers from now on, or none of
     * them and says false when they do not fit.
     */
    boolean tryAdd(OverlayStore changes) {
        int count = changes.size();
        if (count == 0) {
            return true;
        }
        if (size.get() + count > maxRows) {
            return false;
        }
        changes.applyTo(new Store() {
            @Override
            public byte[] get(Dbi<byte[]> dbi, byte[] key) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void put(Dbi<byte[]> dbi, byte[] key, byte[] value) {
                add(dbi, key, value);
            }

            @Override
            public boolean delete(Dbi<byte[]> dbi, byte[] key) {
                add(dbi, key, TOMBSTONE);
                return true;
            }

            @Override
            public void scan(Dbi<byte[]> dbi, byte[] prefix, BiConsumer<byte[], byte[]> action) {
                throw new UnsupportedOperationException();
            }
        });
        return true;
    }

    private void add(Dbi<byte[]> dbi, byte[] key, byte[] value) {
        Entry entry = new Entry(value == TOMBSTONE ? TOMBSTONE : value.clone(), WAITING);
        waiting.incrementAndGet();
        Entry previous = map(dbi).put(key.clone(), entry);
        if (previous == null) {
            size.incrementAndGet();
        } else if (previous.state.compareAndSet(WAITING, SUPERSEDED)) {
            waiting.decrementAndGet();
        }
    }

    private ConcurrentSkipListMap<byte[], Entry> map(Dbi<byte[]> dbi) {
        return rows.computeIfAbsent(dbi, d -> new ConcurrentSkipListMap<>(Arrays::compareUnsigned));
    }

    // ---- reading -------------------------------------------------------------------------------------------

    /**
     * Registers a reader that is about to begin its LMDB read transaction; pass the result to {@link #exit}.
     * Returns {@link #NO_READER} when no row is kept: such a reader reads LMDB alone, a plain snapshot.
     */
    long enter() {
        if (size.get() == 0) {
            return NO_READER;
        }
        while (true) {
            long e = epoch.get();
            readers[(int) (e & 1)].incrementAndGet();
            if (epoch.get() == e) {
                return e;
            }
            readers[(int) (e & 1)].decrementAndGet();
        }
    }

    /** Ends a reader of {@link #enter}. */
    void exit(long reader) {
        if (reader != NO_READER) {
            readers[(int) (reader & 1)].decrementAndGet();
        }
    }

    /** {@code beneath} (LMDB, read by a reader {@link #enter registered} before it began) with the kept rows over it. */
    Store over(Store beneath) {
        Objects.requireNonNull(beneath, "beneath");
        return new Store.ReadOnly() {
            @Override
            public byte[] get(Dbi<byte[]> dbi, byte[] key) {
                ConcurrentSkipListMap<byte[], Entry> map = rows.get(dbi);
                Entry e = map == null ? null : map.get(key);
                if (e != null) {
                    return e.value == TOMBSTONE ? null : e.value.clone();
                }
                return beneath.get(dbi, key);
            }

            @Override
            public void scan(Dbi<byte[]> dbi, byte[] prefix, BiConsumer<byte[], byte[]> action) {
                ConcurrentSkipListMap<byte[], Entry> map = rows.get(dbi);
                if (map == null || map.isEmpty()) {
                    beneath.scan(dbi, prefix, action);
                    return;
                }
                TreeMap<byte[], byte[]> merged = new TreeMap<>(Arrays::compareUnsigned);
                beneath.scan(dbi, prefix, merged::put);
                for (Map.Entry<byte[], Entry> row : map.tailMap(prefix, true).entrySet()) {
                    if (!Store.startsWith(row.getKey(), prefix)) {
                        break;
                    }
                    if (row.getValue().value == TOMBSTONE) {
                        merged.remove(row.getKey());
                    } else {
                        merged.put(row.getKey(), row.getValue().value.clone());
                    }
                }
                merged.forEach(action);
            }
        };
    }

    // ---- committing ----------------------------------------------------------------------------------------

    /**
     * Writes every waiting row into {@code target} (an LMDB write transaction just begun), for {@link #committed}
     * after its commit; null when no row is kept (nothing to apply, nothing to update afterwards).
     */
    synchronized Drain drainInto(Store target) {
        if (size.get() == 0) {
            return null;
        }
        List<Row> applied = new ArrayList<>();
        rows.forEach((dbi, map) -> map.forEach((key, entry) -> {
            if (entry.state.get() == WAITING) {
                if (entry.value == TOMBSTONE) {
                    target.delete(dbi, key);
                } else {
                    target.put(dbi, key, entry.value);
                }
                applied.add(new Row(dbi, key, entry));
            }
        }));
        return new Drain(applied);
    }

    /**
     * After the LMDB commit of a batch that {@link #drainInto drained}: its rows are committed; a key it wrote
     * afterwards, kept here with an older value, is kept with the committed value; and what no reader can need any
     * more is dropped. Call under this object's monitor, taken before the LMDB commit (so that commits and these
     * updates come in the same order).
     */
    void committed(Drain drain) {
        for (Row row : drain.applied) {
            if (row.entry.state.compareAndSet(WAITING, COMMITTED)) {
                waiting.decrementAndGet();
                committed.add(row);
            }
        }
        drain.written.forEach((dbi, written) -> {
            ConcurrentSkipListMap<byte[], Entry> map = rows.get(dbi);
            if (map == null) {
                return;
            }
            written.forEach((key, value) -> {
                Entry now = new Entry(value, COMMITTED);
                Entry kept = map.computeIfPresent(key, (k, e) -> e.state.get() == COMMITTED ? now : e);
                if (kept == now) {
                    committed.add(new Row(dbi, key, now));
                }
            });
        });
        reclaim();
    }

    /**
     * Drops the committed rows whose readers are gone: those of the epoch retired before, once its readers ended;
     * then starts retiring those committed since. Never waits.
     */
    synchronized void reclaim() {
        if (retiring != null) {
            if (readers[(int) (retiringEpoch & 1)].get() != 0) {
                return;
            }
            for (Row row : retiring) {
                ConcurrentSkipListMap<byte[], Entry> map = rows.get(row.dbi);
                if (map != null && map.remove(row.key, row.entry)) {
                    size.decrementAndGet();
                }
            }
            retiring = null;
        }
        if (!committed.isEmpty()) {
            // readers that began their LMDB snapshot before these commits entered before this flip
            retiringEpoch = epoch.getAndIncrement();
            retiring = committed;
            committed = new ArrayList<>();
        }
    }
}
