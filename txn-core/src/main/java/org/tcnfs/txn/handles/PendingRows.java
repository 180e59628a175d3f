package org.tcnfs.txn.handles;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.StampedLock;
import java.util.function.BiConsumer;
import org.lmdbjava.Dbi;

/**
 * Handle rows of plain compounds on {@code async} exports, and of those on {@code sync} exports whose rows the
 * {@link RowJournal} made durable (also transactions' records and commit points: the rows of a {@link
 * HandleTable#journalSideTable journaled side table} are kept and read here as a handle table's), that are visible to
 * every reader at once but reach LMDB only with the next LMDB commit, at the latest the {@link LateDurability} flush
 * within its delay (docs/durability.md, "The async export option", "The row journal"). Such a compound's reply then
 * waits for no flush of the table.
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
 * <p><b>Lookups.</b> Each table's rows sit in a hash map (a key's hash computed once, so a point read costs one hash
 * of the key and one comparison). A table scanned by prefix on a common path (the names, for a directory's
 * entries) has a sorted set of the same keys beside it; a scan of any other table (rare: recovery) goes through all
 * its kept rows and sorts those that match. The hash map holds the values; the sorted set only says which keys to
 * look up there. Every change of a key's presence runs inside the hash map's {@code compute} for that key, which
 * adds the key to the sorted set before the value is visible and takes it out only with the value, so a scan never
 * misses a row a point read would see (it may meet a key whose value is not there yet or any more, and reads LMDB
 * for it, as a point read would).
 *
 * <p><b>A compound's rows at once.</b> The rows of one compound are added under the write lock of {@link
 * #publishing}, and a point read or scan of the kept rows validates against it (an optimistic read, retried under the
 * read lock when a compound was being added meanwhile): a reader that sees one row of a compound sees all of them,
 * and a later read never sees fewer of them. Without it a reader could find a new object's inode row before its node
 * row, and take the inode for registered to a node that does not exist ({@code CreateBesideRemovedRowsIT} found
 * such LOOKUPs answering NFS4ERR_STALE once the rows of {@code sync} compounds were kept here, on the loaded 2-core
 * machine, where a thread adding rows is often descheduled half way). A drain takes the same lock, so it applies
 * whole compounds, and so does the update of the kept rows after a commit ({@link #committed}), which could otherwise
 * show a reader a removed node's tombstone beside its inode row as the commit left it.
 *
 * <p>Thread-safe. Rows are added under {@link #publishing}'s write lock (a key's hash bin is locked while it
 * changes); commits and reclamation run under this object's monitor.
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
    private record Row(Dbi<byte[]> dbi, Key key, Entry entry) {
    }

    /** A row's key, compared by content, with its hash computed once. The array is never changed. */
    private static final class Key implements Comparable<Key> {
        final byte[] bytes;
        private final int hash;

        Key(byte[] bytes) {
            this.bytes = bytes;
            this.hash = Arrays.hashCode(bytes);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        /** Unsigned byte order, LMDB's. */
        @Override
        public int compareTo(Key other) {
            return Arrays.compareUnsigned(bytes, other.bytes);
        }
    }

    /**
     * The rows of one table: values by key and, for a table scanned by prefix, the same keys in order (see the class
     * javadoc).
     */
    private static final class Rows {
        final ConcurrentHashMap<Key, Entry> values = new ConcurrentHashMap<>();
        /** Null for a table whose scans sort what they find. */
        final ConcurrentSkipListSet<Key> order;

        Rows(boolean ordered) {
            this.order = ordered ? new ConcurrentSkipListSet<>() : null;
        }

        /** Keeps {@code entry} for {@code key}; returns the entry it replaced, or null. */
        Entry put(Key key, Entry entry) {
            Entry[] previous = new Entry[1];
            values.compute(key, (k, old) -> {
                if (old == null && order != null) {
                    order.add(k);
                }
                previous[0] = old;
                return entry;
            });
            return previous[0];
        }

        /** Drops {@code key} if it still holds {@code entry}; says whether it did. */
        boolean remove(Key key, Entry entry) {
            boolean[] removed = new boolean[1];
            values.computeIfPresent(key, (k, now) -> {
                if (now != entry) {
                    return now;
                }
                if (order != null) {
                    order.remove(k);
                }
                removed[0] = true;
                return null;
            });
            return removed[0];
        }

        /** Calls {@code action} for every kept key starting with {@code prefix} and its entry, in key order. */
        void forEachWithPrefix(byte[] prefix, BiConsumer<byte[], Entry> action) {
            for (Key key : keysFrom(prefix)) {
                if (!Store.startsWith(key.bytes, prefix)) {
                    break;
                }
                Entry entry = values.get(key);
                if (entry != null) {
                    action.accept(key.bytes, entry);
                }
            }
        }

        /** Kept keys from {@code first} on, in order (all of them from an unordered table, sorted). */
        private Iterable<Key> keysFrom(byte[] first) {
            Key from = new Key(first);
            if (order != null) {
                return order.tailSet(from, true);
            }
            TreeSet<Key> sorted = new TreeSet<>();
            for (Key key : values.keySet()) {
                if (key.compareTo(from) >= 0) {
                    sorted.add(key);
                }
            }
            return sorted;
        }
    }

    /** The rows a {@link #drainInto} applied and the changes its batch made after them. */
    static final class Drain {
        private final List<Row> applied;
        /** Used by the batch's thread only. */
        private final Map<Dbi<byte[]>, TreeMap<byte[], byte[]>> written = new java.util.HashMap<>();

        private Drain(List<Row> applied) {
            this.applied = applied;
        }

        /** Whether it applied any row that was waiting. */
        boolean appliesRows() {
            return !applied.isEmpty();
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
    private final Set<Dbi<byte[]>> ordered;
    private final Map<Dbi<byte[]>, Rows> rows = new ConcurrentHashMap<>();
    /** Entries in {@link #rows}. */
    private final AtomicInteger size = new AtomicInteger();
    /** Entries waiting for an LMDB commit. */
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong epoch = new AtomicLong();
    /** Makes each compound's rows visible at once (see the class javadoc). */
    private final StampedLock publishing = new StampedLock();
    private final AtomicLong[] readers = {new AtomicLong(), new AtomicLong()};
    /** Committed rows not yet waiting for a reader epoch to end. Guarded by {@code this}. */
    private List<Row> committed = new ArrayList<>();
    /** Committed rows waiting until the readers of {@link #retiringEpoch} are gone. Guarded by {@code this}. */
    private List<Row> retiring;
    private long retiringEpoch;

    /**
     * @param maxRows most rows kept at once; 0 keeps none (every {@link #tryAdd} says false)
     * @param ordered the tables scanned by prefix on a common path, whose keys are also kept in order
     */
    PendingRows(int maxRows, Set<Dbi<byte[]>> ordered) {
        if (maxRows < 0) {
            throw new IllegalArgumentException("maxRows must not be negative: " + maxRows);
        }
        this.maxRows = maxRows;
        this.ordered = Set.copyOf(ordered);
    }

    /** Whether rows are kept at all. */
    boolean enabled() {
        return maxRows > 0;
    }

    /** Whether {@code count} more rows would be kept now ({@link #tryAdd} of that many: true unless others came). */
    boolean hasRoom(int count) {
        return maxRows > 0 && size.get() + count <= maxRows;
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
        long stamp = publishing.writeLock();
        try {
            if (size.get() + count > maxRows) {
                return false;
            }
            addAll(changes);
        } finally {
            publishing.unlockWrite(stamp);
        }
        return true;
    }

    private void addAll(OverlayStore changes) {
        changes.forEachChange((dbi, key, value) -> add(dbi, key, value == null ? TOMBSTONE : value));
    }

    private void add(Dbi<byte[]> dbi, byte[] key, byte[] value) {
        Entry entry = new Entry(value == TOMBSTONE ? TOMBSTONE : value.clone(), WAITING);
        waiting.incrementAndGet();
        Entry previous = map(dbi).put(new Key(key.clone()), entry);
        if (previous == null) {
            size.incrementAndGet();
        } else if (previous.state.compareAndSet(WAITING, SUPERSEDED)) {
            waiting.decrementAndGet();
        }
    }

    private Rows map(Dbi<byte[]> dbi) {
        return rows.computeIfAbsent(dbi, d -> new Rows(ordered.contains(d)));
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
                Rows map = rows.get(dbi);
                Entry e = null;
                if (map != null) {
                    Key k = new Key(key);
                    long stamp = publishing.tryOptimisticRead();
                    e = map.values.get(k);
                    if (!publishing.validate(stamp)) {
                        stamp = publishing.readLock();
                        try {
                            e = map.values.get(k);
                        } finally {
                            publishing.unlockRead(stamp);
                        }
                    }
                }
                if (e != null) {
                    return e.value == TOMBSTONE ? null : e.value.clone();
                }
                return beneath.get(dbi, key);
            }

            @Override
            public void scan(Dbi<byte[]> dbi, byte[] prefix, BiConsumer<byte[], byte[]> action) {
                Rows map = rows.get(dbi);
                if (map == null || map.values.isEmpty()) {
                    beneath.scan(dbi, prefix, action);
                    return;
                }
                TreeMap<byte[], byte[]> merged = new TreeMap<>(Arrays::compareUnsigned);
                beneath.scan(dbi, prefix, merged::put);
                long stamp = publishing.readLock();
                try {
                    map.forEachWithPrefix(prefix, (key, entry) -> {
                        if (entry.value == TOMBSTONE) {
                            merged.remove(key);
                        } else {
                            merged.put(key, entry.value.clone());
                        }
                    });
                } finally {
                    publishing.unlockRead(stamp);
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
        long stamp = publishing.writeLock();
        try {
            return new Drain(drainWaiting(target));
        } finally {
            publishing.unlockWrite(stamp);
        }
    }

    /** Writes every waiting row into {@code target}; returns them. */
    private List<Row> drainWaiting(Store target) {
        List<Row> applied = new ArrayList<>();
        rows.forEach((dbi, map) -> map.values.forEach((key, entry) -> {
            if (entry.state.get() == WAITING) {
                if (entry.value == TOMBSTONE) {
                    target.delete(dbi, key.bytes);
                } else {
                    target.put(dbi, key.bytes, entry.value);
                }
                applied.add(new Row(dbi, key, entry));
            }
        }));
        return applied;
    }

    /**
     * After the LMDB commit of a batch that {@link #drainInto drained}: its rows are committed; a key it wrote
     * afterwards, kept here with an older value, is kept with the committed value; and what no reader can need any
     * more is dropped. Call under this object's monitor, taken before the LMDB commit (so that commits and these
     * updates come in the same order).
     */
    void committed(Drain drain) {
        long stamp = publishing.writeLock();
        try {
            updateCommitted(drain);
        } finally {
            publishing.unlockWrite(stamp);
        }
        reclaim();
    }

    /** The first two steps of {@link #committed}, under {@link #publishing}: readers see all of them or none. */
    private void updateCommitted(Drain drain) {
        for (Row row : drain.applied) {
            if (row.entry.state.compareAndSet(WAITING, COMMITTED)) {
                waiting.decrementAndGet();
                committed.add(row);
            }
        }
        drain.written.forEach((dbi, written) -> {
            Rows map = rows.get(dbi);
            if (map == null) {
                return;
            }
            written.forEach((bytes, value) -> {
                Entry now = new Entry(value, COMMITTED);
                Key key = new Key(bytes);
                Entry kept = map.values.computeIfPresent(key, (k, e) -> e.state.get() == COMMITTED ? now : e);
                if (kept == now) {
                    committed.add(new Row(dbi, key, now));
                }
            });
        });
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
                Rows map = rows.get(row.dbi);
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
