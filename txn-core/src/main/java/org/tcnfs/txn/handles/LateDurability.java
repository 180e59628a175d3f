package org.tcnfs.txn.handles;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work on the disk that may wait a bounded time after the reply (docs/durability.md), done by one background
 * thread of its {@link HandleTable}, at most {@link #DEFAULT_DELAY} after it was queued, when a transaction asks
 * ({@link #syncDirectoriesNow()}), and at {@link #close()}:
 * <ul>
 *   <li><b>directory fsyncs of plain compounds on {@code async} exports</b>: the compound replies before its name
 *       changes are durable; they are after the next flush;</li>
 *   <li><b>removals of the rows of removed objects</b> ({@link #unlinkLater}): a plain REMOVE makes the
 *       directory entry's removal durable before its reply, but the handle row of the object it removed may go
 *       later. Until then, and for ever if a crash loses the removal, the row names an object that is gone, which
 *       every user of the table tolerates (objects are removed out of band too): resolving the handle finds
 *       nothing with its inode number and birth time at its path and answers NFS4ERR_STALE, and creating or
 *       looking up the name replaces the row. So one REMOVE costs one directory fsync instead of that and a
 *       durable LMDB commit (two more device flushes).</li>
 *   <li><b>handle rows of plain compounds on {@code async} exports</b> ({@link PendingRows}, {@link #rowsWaiting}):
 *       kept in memory, visible to all, until a flush (or any other LMDB commit) commits them.</li>
 * </ul>
 * A flush commits the pending rows (if any wait, one durable LMDB commit), runs the queued directory syncs (all at
 * once, {@link FsyncPool}), then removes the queued rows in one
 * {@link HandleTable#commitLazily lazy} commit (each only if the name still names the same handle: a new object
 * may have taken the name meanwhile), then syncs the table if a lazy commit ran since its last sync.
 *
 * <p>Bounded: at most {@link #MAX_DIRECTORY_SYNCS} directories (each holds an open descriptor) and
 * {@link #MAX_UNLINKS} removals wait; when full, the caller does its own work at once (the offer methods say
 * false). Thread-safe.
 */
public final class LateDurability implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LateDurability.class);

    /** How long queued work waits at most before the background thread does it. */
    public static final Duration DEFAULT_DELAY = Duration.ofSeconds(1);
    /**
     * Test injection: {@code -Dtcnfs.test.late-delay-ms=N} makes queued work wait N ms instead of
     * {@link #DEFAULT_DELAY}, so that a test counting one compound's flushes on a loaded machine never counts the
     * background flush of the compound's own rows with them ({@code PlainNameChangeFlushesIT}).
     */
    public static final String DELAY_PROPERTY = "tcnfs.test.late-delay-ms";
    /** Most directory syncs waiting at once. */
    public static final int MAX_DIRECTORY_SYNCS = 1024;
    /** Most row removals waiting at once. */
    public static final int MAX_UNLINKS = 8192;

    /** {@link #DEFAULT_DELAY}, or the test's {@link #DELAY_PROPERTY}. */
    static Duration configuredDelay() {
        long ms = Long.getLong(DELAY_PROPERTY, -1);
        return ms > 0 ? Duration.ofMillis(ms) : DEFAULT_DELAY;
    }

    /** A removal of the row {@code (parent, name)}, if it still names {@code handle}. */
    record Unlink(Nfh parent, String name, Nfh handle) {
    }

    private final HandleTable table;
    private final long delayNanos;
    private final Object lock = new Object();
    /** Serializes flushes, so that the rows of one go after its directory syncs. */
    private final Object flushing = new Object();
    private final Map<Object, TxnBuffer.PendingSync> syncs = new LinkedHashMap<>();
    private final ArrayDeque<Unlink> unlinks = new ArrayDeque<>();
    /**
     * The removals queued or being committed by a flush, until their commit: what {@link #removes} answers from.
     * Guarded by {@code lock}.
     */
    private final Set<Unlink> notYetCommitted = new HashSet<>();
    /** When the oldest queued work was queued ({@link System#nanoTime()}), valid while some is queued. */
    private long oldest;
    /** Whether pending rows wait for a flush (to be committed, or kept ones to be dropped). Guarded by {@code lock}. */
    private boolean rowsWaiting;
    private Thread thread;
    private boolean closed;

    LateDurability(HandleTable table, Duration delay) {
        this.table = Objects.requireNonNull(table, "table");
        this.delayNanos = delay.toNanos();
    }

    /**
     * Queues the sync of a directory (keyed by {@code key}: one per directory; a second one for the same key is
     * closed at once). Returns false, without taking {@code sync}, when the queue is full or closed: the caller
     * syncs now.
     */
    public boolean syncLater(Object key, TxnBuffer.PendingSync sync) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(sync, "sync");
        synchronized (lock) {
            if (closed) {
                return false;
            }
            if (syncs.containsKey(key)) {
                sync.close();
                return true;
            }
            if (syncs.size() >= MAX_DIRECTORY_SYNCS) {
                return false;
            }
            queued();
            syncs.put(key, sync);
        }
        return true;
    }

    /**
     * Whether the sync of the directory {@code key} waits in the queue and has not begun: it then makes every change
     * of the directory's entries made before this call durable, and a compound that changed them need not queue a sync
     * (nor open a descriptor) of its own ({@link HandleTable#syncDirectoryAtCompoundEnd}).
     */
    boolean holdsDirectorySync(Object key) {
        synchronized (lock) {
            return !closed && syncs.containsKey(key);
        }
    }

    /**
     * Queues the removal of the row of name {@code name} in directory {@code parent}, whose object the caller
     * removed and whose directory it made durable, if the table still names {@code handle} there when the queue
     * is flushed. Returns false when the queue is full or closed: the caller removes the row itself.
     */
    public boolean unlinkLater(Nfh parent, String name, Nfh handle) {
        Link.checkName(name);
        synchronized (lock) {
            if (closed || unlinks.size() >= MAX_UNLINKS) {
                return false;
            }
            queued();
            Unlink unlink = new Unlink(Objects.requireNonNull(parent, "parent"), name,
                    Objects.requireNonNull(handle, "handle"));
            unlinks.add(unlink);
            table.changing(); // the planner's removalPending answers differ now
            notYetCommitted.add(unlink);
            table.changed();
        }
        return true;
    }

    /**
     * Whether the row {@code (parent, name)} naming {@code handle} is a removed object's whose removal is queued or
     * being committed: the name is gone on disk though the table still has it. The planner asks, so that it never
     * takes such a name for an existing one (an OPEN of an existing name only read-locks its directory).
     */
    public boolean removes(Nfh parent, String name, Nfh handle) {
        synchronized (lock) {
            return !notYetCommitted.isEmpty() && notYetCommitted.contains(new Unlink(parent, name, handle));
        }
    }

    /**
     * Notes that the table keeps {@link PendingRows pending rows}: the next flush, within the delay, commits them.
     * After {@link #close()} nothing (the table's close commits what is left).
     */
    void rowsWaiting() {
        synchronized (lock) {
            if (closed || rowsWaiting) {
                return;
            }
            queued();
            rowsWaiting = true;
        }
    }

    /**
     * Whether {@code count} more directory syncs and as many row removals would be queued now ({@link #syncLater},
     * {@link #unlinkLater} true unless others came first), not done by their caller.
     */
    public boolean hasRoom(int count) {
        synchronized (lock) {
            return !closed && syncs.size() + count <= MAX_DIRECTORY_SYNCS && unlinks.size() + count <= MAX_UNLINKS;
        }
    }

    /** Directory syncs and row removals waiting (tests, metrics). */
    public int pending() {
        synchronized (lock) {
            return syncs.size() + unlinks.size();
        }
    }

    /** Directory syncs waiting. */
    public boolean hasDirectorySyncs() {
        synchronized (lock) {
            return !syncs.isEmpty();
        }
    }

    /**
     * Runs the queued directory syncs now, on the calling thread: a transaction does so before its commit point,
     * so that what it commits never stands on an {@code async} name change a crash could still lose.
     *
     * @throws IOException the first failed sync (all were tried)
     */
    public void syncDirectoriesNow() throws IOException {
        synchronized (flushing) {
            runSyncs(takeSyncs());
        }
    }

    /** Does all queued work now (the background thread, {@link #close()}, tests). Failures are logged. */
    public void flush() {
        synchronized (flushing) {
            // both at once: a row's removal is queued after its directory's sync, so it is never taken before it
            List<TxnBuffer.PendingSync> dirs;
            List<Unlink> rows;
            synchronized (lock) {
                dirs = takeSyncs();
                rows = new ArrayList<>(unlinks);
                unlinks.clear();
                rowsWaiting = false;
            }
            // the table's pending rows first: durable before the directories they describe
            boolean rowsKept = false;
            try {
                rowsKept = table.flushPendingRows();
            } catch (RuntimeException e) {
                LOG.error("committing the pending handle rows of async compounds failed: {}; they stay in memory and "
                        + "the next flush tries again", e.toString());
                rowsKept = true;
            }
            if (rowsKept) {
                rowsWaiting();
            }
            try {
                runSyncs(dirs);
            } catch (IOException e) {
                LOG.error("syncing directories of async name changes failed: {}; those changes may be lost in a "
                        + "power cut (check the export's file system)", e.toString());
            }
            try {
                unlinkNow(table, rows);
            } finally {
                synchronized (lock) {
                    table.changing();
                    rows.forEach(notYetCommitted::remove);
                    table.changed();
                }
            }
            if (table.hasUnsyncedCommits()) {
                try {
                    table.sync();
                } catch (RuntimeException e) {
                    LOG.error("syncing the handle table failed: {}; recent handle changes of async exports may "
                            + "be lost in a power cut", e.toString());
                }
            }
        }
    }

    /** Stops the background thread after a last flush; later offers are refused. Harmless twice. */
    @Override
    public void close() {
        Thread t;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            t = thread;
            lock.notifyAll();
        }
        if (t != null) {
            try {
                t.join(Duration.ofSeconds(30).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        flush();
    }

    /** Notes that work was queued (under {@link #lock}): starts the thread, or wakes it. */
    private void queued() {
        if (idle()) {
            oldest = System.nanoTime();
            lock.notifyAll();
        }
        if (thread == null) {
            thread = new Thread(this::loop, "tcnfs-late-durability");
            thread.setDaemon(true);
            thread.start();
        }
    }

    private void loop() {
        while (true) {
            synchronized (lock) {
                try {
                    while (!closed && idle()) {
                        lock.wait();
                    }
                    while (!closed) {
                        long left = oldest + delayNanos - System.nanoTime();
                        if (left <= 0 || idle()) {
                            break;
                        }
                        lock.wait(Math.max(1, left / 1_000_000));
                    }
                } catch (InterruptedException e) {
                    return;
                }
                if (closed) {
                    return;
                }
            }
            try {
                flush();
            } catch (RuntimeException e) {
                LOG.error("background flush of the handle table failed: {}", e.toString(), e);
            }
        }
    }

    /** Whether nothing is queued (under {@link #lock}). */
    private boolean idle() {
        return syncs.isEmpty() && unlinks.isEmpty() && !rowsWaiting;
    }

    /** Removes each row that still names its handle, in one lazy commit; failures are logged. */
    static void unlinkNow(HandleTable table, List<Unlink> rows) {
        if (rows.isEmpty()) {
            return;
        }
        try {
            table.commitLazily(batch -> {
                for (Unlink u : rows) {
                    if (batch.child(u.parent(), u.name()).filter(u.handle()::equals).isPresent()) {
                        batch.unlink(u.parent(), u.name());
                    }
                }
            });
        } catch (RuntimeException e) {
            LOG.warn("removing {} rows of removed objects from the handle table failed: {}; they stay, "
                    + "harmlessly (their handles answer NFS4ERR_STALE)", rows.size(), e.toString());
        }
    }

    private List<TxnBuffer.PendingSync> takeSyncs() {
        synchronized (lock) {
            List<TxnBuffer.PendingSync> taken = new ArrayList<>(syncs.values());
            syncs.clear();
            return taken;
        }
    }

    private static void runSyncs(List<TxnBuffer.PendingSync> taken) throws IOException {
        if (taken.isEmpty()) {
            return;
        }
        try {
            FsyncPool.runAll(taken.stream().map(sync -> (FsyncPool.Sync) sync::sync).toList());
        } finally {
            taken.forEach(TxnBuffer.PendingSync::close);
        }
    }
}
