package org.tcnfs.txn.handles;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The TXN buffer of DESIGN.md step 6: the handle-table changes of one transactional compound, kept in
 * memory until the commit point. While a thread is {@link HandleTable#bind bound} to the buffer, every
 * {@link HandleTable#write()} batch it opens commits into the buffer, and its reads see the buffer over the
 * committed table; other threads see none of it. {@link #commit} applies all of it in one LMDB write
 * transaction, together with whatever else the caller writes there (deleting the recovery record), so the
 * handle changes and the end of the transaction are one atomic, durable step. {@link #discard()} forgets
 * it (rollback).
 *
 * <p>Plain (non-transactional) compounds that hold their locks use a buffer too, so that all their handle
 * changes become durable in one commit before the reply instead of one commit per operation. Their stable
 * WRITEs leave their fsync to the buffer as well ({@link HandleTable#syncAtCompoundEnd}): one per file
 * written, run by {@link #syncPending()} before the commit.
 *
 * <p>Changes are applied as the rows they produced. Two buffers never change the same rows because
 * their compounds hold conflicting locks on the objects those rows describe.
 *
 * <p>Not thread-safe: used by the thread that runs its compound.
 */
public final class TxnBuffer {
    private final HandleTable table;
    private final OverlayStore overlay;
    private final boolean ownerSyncsData;
    private final Map<Object, PendingSync> pendingSyncs = new LinkedHashMap<>();
    /** Rows of objects a plain compound removed, to go after its directory syncs ({@link #forgetRemovedRows}). */
    private final List<LateDurability.Unlink> removedRows = new ArrayList<>();
    /**
     * Whether the rows of objects the compound removes go after its directory syncs even though its owner is a
     * transaction ({@link #removeRowsLate}).
     */
    private boolean removesRowsLate;
    /**
     * Where a transaction's REMOVE moves its victim (an empty directory or a non-directory) instead of removing it, by
     * the victim's inode number ({@link #keepRemoved}); at most the compound's REMOVEs.
     */
    private final Map<Long, Path> removedPlaces = new java.util.HashMap<>();
    /** Whether a batch merged into the buffer wrote or removed a directory's row. */
    private boolean directoriesChanged;
    /** Whether a change must not be durable before the compound's syncs ({@link #commitAfterSyncs()}). */
    private boolean commitAfterSyncs;
    /** Whether its directory syncs go to the {@link LateDurability} queue ({@link #deferringDirectorySyncs}). */
    private boolean defersDirectorySyncs;
    /** Whether its owner, a transaction, takes the syncs of files it wrote from it ({@link #keepFileSyncs}). */
    private boolean keepsFileSyncs;
    /**
     * Per {@link OrderedLog}: the compound's last change of directory entries on it, whose sync covers its earlier
     * ones there ({@link #withoutCoveredDirectories}); at most one entry per export the compound changed.
     */
    private final Map<OrderedLog, LastChange> lastChanges = new HashMap<>();
    /** The log of the last {@link #lastChanges} entry made, for {@link #loggedWithLastDirectoryChange}. */
    private OrderedLog latestLog;

    /**
     * The last change of directory entries of a compound on one {@link OrderedLog}: the key of the directory's sync
     * and, if known, the key of another object that change logged in the same file-system transaction (a file it
     * created), whose fsync forces the log as far.
     */
    private record LastChange(Object directory, Object alsoLogged) {
    }

    /** A sync a stable WRITE left to the end of its compound, holding what it needs (an open file). */
    public interface PendingSync extends AutoCloseable {
        /** Makes the file durable. */
        void sync() throws IOException;

        /**
         * Whether this syncs a directory's entries (a name change) rather than a file's data: on an {@code async}
         * export such a sync may wait ({@link #syncPending(boolean)}).
         */
        default boolean isDirectory() {
            return false;
        }

        /**
         * The local path of the file, as it was when the sync was kept; null when not known (a file kept open
         * after its last name went) or for a directory.
         */
        default Path path() {
            return null;
        }

        /** Releases what the sync held; called once, after {@link #sync} or instead of it. */
        @Override
        void close();

        /**
         * The file system the object lives on, when it can make all its changes durable at once ({@link
         * FileSystemSync}); null when not.
         */
        default FileSystemSync fileSystem() {
            return null;
        }

        /**
         * The file system's log when it makes metadata changes durable in order ({@link OrderedLog}): an fsync of
         * this object then also makes durable every change logged before this object's last one. Null when not.
         */
        default OrderedLog orderedLog() {
            return null;
        }
    }

    /**
     * A file system that makes every change made to it before the call durable in one call ({@code syncfs(2)}):
     * cheaper than an fsync per file when a compound wrote many files (docs/durability.md, "One syncfs for many
     * files"). Its identity names the file system for {@link SharedFsync}.
     */
    public interface FileSystemSync {
        /** Writes back and commits (journal) everything the file system holds, as of the call's start. */
        void syncAll() throws IOException;
    }

    /**
     * Fewest pending syncs (files and directories, on one file system, at least one of them a file) that a compound
     * makes durable with one shared {@code syncfs} plus one file's fsync instead of an fsync each; 0 (the default)
     * turns it off. An experiment ({@code -Dtcnfs.syncfs-min-syncs=4}): a {@code syncfs} also flushes what every
     * other process wrote to the file system, so on a busy shared one it measured slower (docs/benchmarks.md).
     */
    static volatile int syncfsMinSyncs = Math.max(0, Integer.getInteger("tcnfs.syncfs-min-syncs", 0));

    /**
     * Most file syncs, and so open files, a transaction's buffer keeps for its commit ({@link #keepFileSyncs}): a
     * transaction of many stable WRITEs (an untar in one compound) would otherwise hold a descriptor per file until its
     * commit, which reopens the others one at a time, as it did every file before.
     */
    static final int MAX_KEPT_FILE_SYNCS = 1024;

    /** Opens a {@link PendingSync}. */
    @FunctionalInterface
    public interface SyncOpener {
        PendingSync open() throws IOException;
    }

    TxnBuffer(HandleTable table, Store committed, boolean ownerSyncsData) {
        this.table = table;
        this.overlay = new OverlayStore(committed);
        this.ownerSyncsData = ownerSyncsData;
    }

    /**
     * Whether the buffer's owner fsyncs every file its compound wrote before {@link #commit} (a
     * transaction does, DESIGN.md step 7), so that a stable WRITE need not sync on its own.
     */
    public boolean ownerSyncsData() {
        return ownerSyncsData;
    }

    /**
     * Lets a transaction's stable WRITEs keep the syncs of the files they wrote, holding them open (as a plain
     * compound's do, one per file), for the transaction's commit to run through {@link #takeKeptFileSyncs}: an
     * fsync of the descriptor the WRITE used instead of a {@code stat}, {@code open} and {@code close} of the file by
     * its path. Only for a compound in which each name means the same object from its first operation to its last
     * (the caller knows), so that the path a sync was kept under still names the file it syncs. Directories' syncs
     * stay the transaction's own. Bounded: at most {@link #MAX_KEPT_FILE_SYNCS} files are held open so; the commit
     * reopens the others by path.
     */
    public void keepFileSyncs() {
        keepsFileSyncs = true;
    }

    /**
     * Whether a stable WRITE keeps its file's sync in this buffer for its transaction's commit: after {@link
     * #keepFileSyncs}, while fewer than {@link #MAX_KEPT_FILE_SYNCS} are kept.
     */
    boolean keepsFileSyncs() {
        return keepsFileSyncs && pendingSyncs.size() < MAX_KEPT_FILE_SYNCS;
    }

    /**
     * The file syncs a transaction's stable WRITEs kept ({@link #keepFileSyncs}), taken out of the buffer: the
     * commit runs their {@link KeptFileSyncs#tasks() tasks} among its own syncs and then closes them (also after a
     * failure; a rollback's {@link #discard} releases those not taken).
     */
    public KeptFileSyncs takeKeptFileSyncs() {
        if (pendingSyncs.isEmpty()) {
            return KeptFileSyncs.NONE;
        }
        TakenSyncs syncs = takePendingSyncs();
        Set<Path> files = new HashSet<>();
        for (Map.Entry<Object, PendingSync> e : syncs.all()) {
            if (!e.getValue().isDirectory() && e.getValue().path() != null) {
                files.add(e.getValue().path());
            }
        }
        return new KeptFileSyncs(files, syncsOf(syncs.toRun()), syncs::release);
    }

    /**
     * The file syncs {@link #takeKeptFileSyncs} took.
     *
     * @param files the local paths of the files they sync ({@link PendingSync#path()}; those without one are synced
     *     all the same)
     * @param tasks what runs them, each shared with the compounds syncing the same object at that moment
     * @param release releases what they hold, once they ran
     */
    public record KeptFileSyncs(Set<Path> files, List<FsyncPool.Sync> tasks, Runnable release)
            implements AutoCloseable {
        /** None kept. */
        static final KeptFileSyncs NONE = new KeptFileSyncs(Set.of(), List.of(), () -> { });

        @Override
        public void close() {
            release.run();
        }
    }

    /**
     * Lets the rows of the objects this transaction's compound removes go after its directory syncs, as a plain
     * REMOVE's do ({@link HandleTable#unlinkAfterSync}), instead of in its commit: for a light-path compound, which
     * has no recovery record for whose undo the table must stay as it was, and whose removal is durable with its
     * directory's fsync. The owner calls {@link #forgetRemovedRows} after those syncs.
     */
    public void removeRowsLate() {
        removesRowsLate = true;
    }

    /**
     * Lets the REMOVE of the object with inode number {@code ino} (an empty directory or a non-directory) rename it to
     * {@code place} (in the transaction's backup directory) instead of removing it ({@link
     * HandleTable#placeForRemoved}): one step, as a removal is, and the same object is kept for the undo (a
     * transaction, whose REMOVE then moves nothing aside and links nothing before its own change).
     */
    public void keepRemoved(long ino, Path place) {
        removedPlaces.put(ino, Objects.requireNonNull(place, "place"));
    }

    /** The place {@link #keepRemoved} gave the object with inode number {@code ino}, taken once. */
    java.util.Optional<Path> takeRemovedPlace(long ino) {
        return java.util.Optional.ofNullable(removedPlaces.remove(ino));
    }

    /**
     * Whether the rows of objects the compound removes go after its directory syncs ({@link #forgetRemovedRows}):
     * always for a plain compound, for a transaction only after {@link #removeRowsLate}.
     */
    public boolean removesRowsLate() {
        return !ownerSyncsData || removesRowsLate;
    }

    /** Whether nothing was changed. */
    public boolean isEmpty() {
        return overlay.isEmpty();
    }

    /** How many rows the buffer changes. */
    public int changedRows() {
        return overlay.size();
    }

    /**
     * Applies the buffer in one LMDB write transaction, runs {@code alsoInSameCommit} inside it (for the
     * caller's side-table writes), and commits, grouped with concurrent commits
     * ({@link HandleTable#commitDurably}); the buffer is empty afterwards. When anything fails nothing
     * is committed and the buffer keeps its changes.
     */
    public void commit(Consumer<HandleBatch> alsoInSameCommit) {
        commit(alsoInSameCommit, true);
    }

    /**
     * {@link #commit(Consumer)}, durable when it returns if {@code durable}, else {@link HandleTable#commitLazily
     * lazily} (a plain compound on an {@code async} export).
     */
    public void commit(Consumer<HandleBatch> alsoInSameCommit, boolean durable) {
        Objects.requireNonNull(alsoInSameCommit, "alsoInSameCommit");
        boolean directories = directoriesChanged;
        Consumer<HandleBatch> work = batch -> {
            overlay.applyTo(batch.store);
            if (directories) {
                batch.markDirectoriesChanged();
            }
            alsoInSameCommit.accept(batch);
        };
        if (durable) {
            table.commitDurably(work);
        } else {
            table.commitLazily(work);
        }
        overlay.clear();
        directoriesChanged = false;
    }

    /**
     * For a plain compound on an {@code async} export: makes the buffer's changes visible to every compound at once
     * and leaves them to the next LMDB commit, at the latest the table's {@link LateDurability} flush within its
     * delay ({@link HandleTable#keepPending}): no flush of the table before the reply. When the table keeps no more
     * pending rows, {@link #commit(Consumer, boolean) commits lazily} as before. The buffer is empty afterwards.
     */
    public void commitPending() {
        if (keepPending()) {
            return;
        }
        commit(batch -> { }, false);
    }

    /**
     * The first half of {@link #commitPending()}: makes the buffer's changes visible as pending rows when the table
     * takes them (the buffer is empty afterwards), without any LMDB commit; false, changing nothing, when it does not
     * (pending rows off or full): the caller commits. A plain {@code async} compound whose rows it took has nothing
     * left to overlap with its files' syncs, and runs them on its own thread (docs/benchmarks.md, "one new file per
     * compound").
     */
    public boolean keepPending() {
        if (table.keepPending(overlay, directoriesChanged)) {
            overlay.clear();
            directoriesChanged = false;
            return true;
        }
        return false;
    }

    /**
     * For a plain compound on a {@code sync} export: makes the buffer's changes durable before it returns, by one
     * flush of the table's {@link RowJournal} (shared with the compounds flushing it at the same moment) when the
     * journal takes them ({@link HandleTable#keepJournaled}: visible to every compound at once as pending rows, in
     * LMDB with a later commit), else by a durable {@link #commit(Consumer, boolean) commit} as before. The buffer is
     * empty afterwards.
     *
     * @throws HandleTableException the commit (or, after a failed journal flush, the commit of the pending rows)
     *     failed
     */
    public void commitJournaled() {
        long sequence = journal();
        if (sequence < 0) {
            commit(batch -> { }, true);
        } else {
            table.flushJournal(sequence);
        }
    }

    /**
     * {@link #commitJournaled()} with {@code alsoInSameCommit} run on a batch of the buffer first (the caller's
     * side-table writes: a transaction's commit point deletes its recovery record), so that the buffer's rows and
     * those writes are one journal record and one flush (or one durable LMDB commit when the journal does not take
     * them): a crash keeps all of them or none. {@code alsoInSameCommit} must write blindly (it runs before the commit,
     * not inside an LMDB write transaction).
     *
     * @throws HandleTableException the commit failed
     */
    public void commitJournaled(Consumer<HandleBatch> alsoInSameCommit) {
        Objects.requireNonNull(alsoInSameCommit, "alsoInSameCommit");
        try (HandleBatch batch = batch()) {
            alsoInSameCommit.accept(batch);
            batch.commit();
        }
        commitJournaled();
    }

    /**
     * {@link HandleTable#keepJournaled} of the buffer's changes: their record's sequence number (the buffer is then
     * empty), or -1 when the journal took none of them.
     */
    private long journal() {
        long sequence = table.keepJournaled(overlay, directoriesChanged, ownerSyncsData);
        if (sequence >= 0) {
            overlay.clear();
            directoriesChanged = false;
        }
        return sequence;
    }

    /**
     * Notes that the row {@code (parent, name)}, naming {@code handle}, is to be removed after the compound's
     * directory syncs ({@link HandleTable#unlinkAfterSync}).
     */
    void unlinkAfterSync(Nfh parent, String name, Nfh handle) {
        removedRows.add(new LateDurability.Unlink(parent, name, handle));
    }

    /**
     * Hands the rows of the objects the compound removed to the table's {@link LateDurability} queue, to be
     * removed within its delay (each only if its name still names the same handle); those the queue cannot take
     * are removed now, in a lazy commit. Call after {@link #syncPending} (and after {@link #commit}, so that the
     * queue finds the compound's own rows).
     */
    public void forgetRemovedRows() {
        if (removedRows.isEmpty()) {
            return;
        }
        LateDurability late = table.late();
        List<LateDurability.Unlink> refused = new ArrayList<>();
        for (LateDurability.Unlink u : removedRows) {
            if (!late.unlinkLater(u.parent(), u.name(), u.handle())) {
                refused.add(u);
            }
        }
        removedRows.clear();
        LateDurability.unlinkNow(table, refused);
    }

    /** Forgets every change (the transaction rolled back) and releases the pending syncs unrun. */
    public void discard() {
        removedRows.clear();
        commitAfterSyncs = false;
        overlay.clear();
        directoriesChanged = false;
        releasePending();
    }

    /**
     * Keeps the sync {@code opener} opens, unless one is kept under {@code key} already (a file written
     * twice is synced once).
     */
    void syncBeforeCommit(Object key, SyncOpener opener) throws IOException {
        PendingSync sync = pendingSyncs.get(key);
        if (sync == null) {
            sync = opener.open();
            pendingSyncs.put(key, sync);
        }
        OrderedLog log = sync.orderedLog();
        if (sync.isDirectory() && log != null) {
            // called right after each change of the directory's entries: the latest call is the last change
            lastChanges.put(log, new LastChange(key, null));
            latestLog = log;
        }
    }

    /**
     * Notes that the change of directory entries whose sync was kept last, under {@code directory}, logged the object
     * {@code object} too, in the same file-system transaction (the object it created): if the compound syncs that
     * object as a file anyway, its fsync forces the log as far, and the directory needs no sync of its own. Nothing
     * when the last kept sync is not {@code directory}'s.
     */
    void loggedWithLastDirectoryChange(Object directory, Object object) {
        LastChange last = latestLog == null ? null : lastChanges.get(latestLog);
        if (last != null && last.directory().equals(directory)) {
            lastChanges.put(latestLog, new LastChange(directory, Objects.requireNonNull(object, "object")));
        }
    }

    /**
     * Notes that the compound will hand its directory syncs to the table's {@link LateDurability} queue
     * ({@link #deferDirectorySyncs}): a plain compound on an {@code async} export. A directory whose sync the queue
     * holds already then needs none of its own ({@link HandleTable#syncDirectoryAtCompoundEnd}).
     */
    public void deferringDirectorySyncs() {
        defersDirectorySyncs = true;
    }

    /** Whether {@link #deferringDirectorySyncs} was called. */
    boolean defersDirectorySyncs() {
        return defersDirectorySyncs;
    }

    /**
     * Hands the pending syncs of directories to the table's {@link LateDurability} queue (done within its delay);
     * those it cannot take stay pending.
     */
    public void deferDirectorySyncs() {
        // the sync of the last change covers the others on its log also when the queue runs it, after this call
        dropCoveredDirectories();
        LateDurability late = table.late();
        pendingSyncs.entrySet().removeIf(e -> e.getValue().isDirectory() && late.syncLater(e.getKey(), e.getValue()));
    }

    /**
     * Notes that a change the compound made must not become durable before its directory syncs (a RENAME: were
     * its row durable and its directory entry not, a cut would leave the object where its row does not look).
     */
    void markCommitAfterSyncs() {
        commitAfterSyncs = true;
    }

    /**
     * Whether the buffer's commit may run while its syncs run ({@link #syncPendingAlongside}): no change was
     * {@linkplain HandleTable#commitAfterSyncs marked} as having to follow them. Rows of objects a plain compound
     * created or looked up may become durable just before their names: such a row then names nothing, answers
     * NFS4ERR_STALE, and its client never got it (docs/durability.md).
     */
    public boolean mayCommitAlongsideSyncs() {
        return !commitAfterSyncs;
    }

    /**
     * Runs the pending syncs and {@code commit} (the buffer's commit) at once ({@link FsyncPool}; {@code commit} on
     * the calling thread), and releases the syncs: one flush of latency less than syncing first.
     *
     * @throws IOException the first failure, after all have ended
     */
    public void syncPendingAlongside(FsyncPool.Sync commit) throws IOException {
        // taken out first: a failed commit discards the buffer while the syncs may still run
        TakenSyncs syncs = takePendingSyncs();
        List<FsyncPool.Sync> all = new ArrayList<>(syncs.toRun().size() + 1);
        all.add(Objects.requireNonNull(commit, "commit"));
        all.addAll(syncsOf(syncs.toRun()));
        try {
            FsyncPool.runAll(all);
        } finally {
            syncs.release();
        }
    }

    /**
     * For a plain compound that releases its locks early (docs/durability.md): on the calling thread, makes the
     * buffer's changes visible to every compound at once (written to the {@link RowJournal} as pending rows, else
     * committed lazily) and runs {@code whenVisible} (which releases the locks); then makes them durable (the
     * journal's flush, else {@link HandleTable#syncShared()}, one table sync shared among compounds) while the
     * pending syncs run. Only when {@link #mayCommitAlongsideSyncs()}: such rows may become durable before the names
     * they record. {@code whenVisible} runs also when the commit fails (the buffer is then discarded and the failure
     * thrown, as an IOException, after the syncs ended).
     *
     * <p>What runs where (issue 16, the latency of one client's short compounds): the calling thread runs the first
     * of the syncs' chains ({@code wave}) itself, a file's fsync and its directory's after it, the longest wait
     * of a compound that wrote one file (about 0.5 ms on the XFS test mount, against about 0.25 ms for the
     * journal's {@code fdatasync}), and the rows' flush goes to a pool thread ({@link FsyncPool}) with the other
     * chains. The other way round, as before, the file's fsync began only once a pool thread had woken up, and the
     * reply waited for a second wake-up, of the calling thread when the pool's chain ended: two thread wake-ups on
     * the compound's path that now overlap the file's fsync. Counted by {@link HandleTable#rowFlushesHandedOff()}.
     *
     * @throws IOException the first failure, after all syncs have ended
     */
    public void commitVisiblyAlongsideSyncs(Runnable whenVisible) throws IOException {
        Objects.requireNonNull(whenVisible, "whenVisible");
        if (!mayCommitAlongsideSyncs()) {
            throw new IllegalStateException("a buffer whose commit must follow its syncs cannot commit before them");
        }
        // taken out first: a failed commit discards the buffer while the syncs still run
        TakenSyncs syncs = takePendingSyncs();
        try {
            SyncFailures failures = new SyncFailures();
            FsyncPool.Sync rowsDurable = null;
            try {
                rowsDurable = commitVisibly();
            } catch (IOException e) {
                failures.add(e);
            } finally {
                whenVisible.run();
            }
            List<FsyncPool.Sync> all = new ArrayList<>(syncsOf(syncs.toRun()));
            if (rowsDurable != null) {
                if (!all.isEmpty()) {
                    table.countRowFlushHandedOff();
                }
                all.add(rowsDurable);
            }
            failures.run(() -> FsyncPool.runAll(all));
            failures.throwIfAny();
        } finally {
            syncs.release();
        }
    }

    /**
     * Makes the buffer's rows visible to every compound (a {@link RowJournal} record, else a lazy commit) and returns
     * what makes them durable (the journal's flush up to that record, else a shared table sync); null when the buffer
     * holds no rows. A failure discards the buffer.
     */
    private FsyncPool.Sync commitVisibly() throws IOException {
        if (isEmpty()) {
            return null;
        }
        long sequence;
        try {
            sequence = journal();
            if (sequence < 0) {
                commit(batch -> { }, false);
            }
        } catch (RuntimeException e) {
            discard();
            throw new IOException("committing the handle table failed: " + e, e);
        }
        return () -> {
            try {
                if (sequence >= 0) {
                    table.flushJournal(sequence);
                } else {
                    table.syncShared();
                }
            } catch (RuntimeException e) {
                throw new IOException("syncing the handle table failed: " + e, e);
            }
        };
    }

    /** Whether syncs are waiting for {@link #syncPending()}. */
    public boolean hasPendingSyncs() {
        return !pendingSyncs.isEmpty();
    }

    /**
     * Runs the pending syncs, all at once ({@link FsyncPool}), each shared with other compounds syncing the same
     * object at that moment ({@link SharedFsync}, by the key it was kept under), and releases them (all of them,
     * also on failure).
     */
    public void syncPending() throws IOException {
        syncPending(false);
    }

    /**
     * {@link #syncPending()}, but if {@code deferDirectories} the syncs of directories go to the table's
     * {@link LateDurability} queue (done within its delay) instead of running now; those it cannot take run now.
     */
    public void syncPending(boolean deferDirectories) throws IOException {
        if (deferDirectories) {
            deferDirectorySyncs();
        }
        TakenSyncs syncs = takePendingSyncs();
        try {
            FsyncPool.runAll(syncsOf(syncs.toRun()));
        } finally {
            syncs.release();
        }
    }

    /**
     * The tasks of one wave of {@code syncs} ({@link FsyncPool#runAll}), each sync shared with the compounds syncing
     * the same object at that moment ({@link SharedFsync}, by its key). A directory's sync is no task of its own when
     * the wave syncs files: it runs right after a file's sync, on that sync's thread (directories spread over the
     * files in turn). A file's fsync on XFS or ext4 commits the journal up to the file's last change, which holds the
     * compound's earlier changes of directory entries, so the directory's fsync after it has little left to do, where
     * the two at once each wait for a flush of their own (one create + 1 KiB write on the XFS and ext4 test mounts:
     * file then directory about as fast as the file alone, both at once slower; docs/benchmarks.md, "One file per
     * compound"), and the compound hands one thread fewer to the pool. A wave of directories alone is one chain: the
     * first fsync commits the journal with every entry the compound changed, each one after it finds nothing left to
     * write (50 directories with an entry removed from each, one after another, on the XFS and ext4 test mounts: the
     * first 0.7-6 ms, the other 49 together 0.03-0.1 ms; all at once on 32 threads 6-8 ms on XFS, 12-18 ms on ext4).
     * Every sync still ends before the wave does; a failed sync does not skip the ones after it.
     */
    private static List<FsyncPool.Sync> wave(List<Map.Entry<Object, PendingSync>> syncs, SharedFsync shared) {
        List<List<Map.Entry<Object, PendingSync>>> chains = new ArrayList<>();
        List<Map.Entry<Object, PendingSync>> directories = new ArrayList<>();
        for (Map.Entry<Object, PendingSync> e : syncs) {
            if (e.getValue().isDirectory()) {
                directories.add(e);
            } else {
                chains.add(new ArrayList<>(List.of(e)));
            }
        }
        if (chains.isEmpty()) {
            // only directories (a compound of REMOVEs, RENAMEs, mkdirs): one after another on one thread, the first
            // commits the journal, the rest find little left (docs/benchmarks.md, "rm -rf per entry, sixth round")
            if (!directories.isEmpty()) {
                chains.add(directories);
            }
        } else {
            for (int i = 0; i < directories.size(); i++) {
                chains.get(i % chains.size()).add(directories.get(i));
            }
        }
        return chains.stream().map(chain -> FsyncPool.oneAfterAnother(chain.stream()
                .map(e -> (FsyncPool.Sync) () -> shared.sync(e.getKey(), e.getValue()::sync)).toList())).toList();
    }

    /**
     * What makes {@code syncs} durable: one fsync each, shared with other compounds syncing the same object
     * ({@link SharedFsync}) and run as one {@link #wave}; or, for at least {@link #syncfsMinSyncs} of them on one
     * {@link FileSystemSync} with a file among them, one {@code syncfs} of that file system followed by the fsync
     * of one of the files (which flushes the device's write cache also when the syncfs found no journal to commit),
     * shared as a whole with the other compounds that need it at the same moment: a round that starts after their
     * changes serves all (counted by the file system, {@code tcnfs_fsyncs_total{of="filesystem"}}).
     */
    private List<FsyncPool.Sync> syncsOf(List<Map.Entry<Object, PendingSync>> syncs) {
        SharedFsync shared = table.sharedFsync();
        int minSyncs = syncfsMinSyncs;
        if (minSyncs > 0 && syncs.size() >= minSyncs) {
            FileSystemSync fs = syncs.get(0).getValue().fileSystem();
            PendingSync file = null;
            for (Map.Entry<Object, PendingSync> e : syncs) {
                if (fs == null || e.getValue().fileSystem() != fs) {
                    fs = null;
                    break;
                }
                if (file == null && !e.getValue().isDirectory()) {
                    file = e.getValue();
                }
            }
            if (fs != null && file != null) {
                FileSystemSync all = fs;
                PendingSync flush = file;
                return List.of(() -> shared.sync(all, () -> {
                    all.syncAll();
                    flush.sync();
                }));
            }
        }
        return wave(syncs, shared);
    }

    /** The pending syncs a compound's end took out of the buffer: all of them, and those to run. */
    private record TakenSyncs(List<Map.Entry<Object, PendingSync>> all, List<Map.Entry<Object, PendingSync>> toRun) {
        /** Releases every sync taken, the ones left out as covered too. */
        void release() {
            all.forEach(e -> e.getValue().close());
        }
    }

    /**
     * Takes every pending sync out of the buffer, with those to run: all but the directory syncs another one covers
     * ({@link #withoutCoveredDirectories}). The one place a compound's end applies that rule, for each way of running
     * the syncs ({@link #syncPending}, {@link #syncPendingAlongside}, {@link #commitVisiblyAlongsideSyncs}).
     */
    private TakenSyncs takePendingSyncs() {
        List<Map.Entry<Object, PendingSync>> all = new ArrayList<>(pendingSyncs.entrySet());
        pendingSyncs.clear();
        List<Map.Entry<Object, PendingSync>> toRun = withoutCoveredDirectories(all);
        forgetLastChanges();
        return new TakenSyncs(all, toRun);
    }

    /**
     * {@code syncs} without the directory syncs that another sync of the same wave covers on a file system that logs
     * in order ({@link OrderedLog}; docs/durability.md, "One log force per compound"): of a compound's directories
     * there, only the one its last change of entries touched is synced, since that fsync forces the log up to that
     * change, which holds every earlier one; and not even that one when the change also logged a file the wave syncs
     * anyway (the file an OPEN created and a stable WRITE then wrote). Files are always synced (their data is not in
     * the log). The syncs left out are released with the others by the caller; counted by the table.
     */
    private List<Map.Entry<Object, PendingSync>> withoutCoveredDirectories(List<Map.Entry<Object, PendingSync>> syncs) {
        if (lastChanges.isEmpty()) {
            return syncs;
        }
        Map<Object, OrderedLog> syncedFiles = new HashMap<>();
        for (Map.Entry<Object, PendingSync> e : syncs) {
            if (!e.getValue().isDirectory() && e.getValue().orderedLog() != null) {
                syncedFiles.put(e.getKey(), e.getValue().orderedLog());
            }
        }
        List<Map.Entry<Object, PendingSync>> kept = new ArrayList<>(syncs.size());
        int covered = 0;
        for (Map.Entry<Object, PendingSync> e : syncs) {
            if (isCovered(e.getKey(), e.getValue(), syncedFiles)) {
                covered++;
            } else {
                kept.add(e);
            }
        }
        table.directorySyncsCovered(covered);
        return kept;
    }

    /**
     * Whether {@code sync}, kept under {@code key}, is a directory's that another sync of the wave covers: the sync of
     * the compound's last change of entries on its log, or of the file that change logged too ({@code syncedFiles}:
     * the wave's files on ordered logs, by key).
     */
    private boolean isCovered(Object key, PendingSync sync, Map<Object, OrderedLog> syncedFiles) {
        OrderedLog log = sync.orderedLog();
        LastChange last = log == null || !sync.isDirectory() ? null : lastChanges.get(log);
        if (last == null) {
            return false;
        }
        if (!last.directory().equals(key)) {
            return true;
        }
        return last.alsoLogged() != null && syncedFiles.get(last.alsoLogged()) == log;
    }

    /**
     * Releases and forgets the pending directory syncs that the sync of the last change covers
     * ({@link #withoutCoveredDirectories}), before the others are handed to the {@link LateDurability} queue: a sync
     * the queue runs later than this call covers as much as one run now.
     */
    private void dropCoveredDirectories() {
        List<Map.Entry<Object, PendingSync>> all = new ArrayList<>(pendingSyncs.entrySet());
        Set<Object> kept = new HashSet<>();
        withoutCoveredDirectories(all).forEach(e -> kept.add(e.getKey()));
        pendingSyncs.entrySet().removeIf(e -> {
            if (kept.contains(e.getKey())) {
                return false;
            }
            e.getValue().close();
            return true;
        });
        forgetLastChanges();
    }

    private void forgetLastChanges() {
        lastChanges.clear();
        latestLog = null;
    }

    private void releasePending() {
        pendingSyncs.values().forEach(PendingSync::close);
        pendingSyncs.clear();
        forgetLastChanges();
    }

    HandleBatch batch() {
        OverlayStore nested = new OverlayStore(overlay);
        return new HandleBatch(table, nested, new HandleBatch.Ending() {
            @Override
            public void commit(boolean changedDirectories) {
                nested.mergeInto(overlay);
                directoriesChanged |= changedDirectories;
            }

            @Override
            public void close(boolean committed) {
                nested.clear();
            }
        });
    }

    HandleSnapshot snapshot() {
        return snapshot(UnaryOperator.identity());
    }

    /** A {@link #snapshot()} whose store, the buffer's rows over the committed ones, is {@code outer}-wrapped. */
    HandleSnapshot snapshot(UnaryOperator<Store> outer) {
        long before = directoriesChanged ? -1 : table.directoryEpoch();
        return table.committedSnapshot(before, committed -> outer.apply(overlay.readingThrough(committed)));
    }

    /**
     * Whether a read of the committed table that read {@code rows} answers what a read through this buffer answers
     * (see {@link RowsRead}): the buffer changed none of those rows and, where the read took a directory's path from
     * the table's cache (not {@code complete}), no directory's row (a directory's path is made of directory rows).
     */
    boolean changesNoneOf(RowsRead rows, boolean complete) {
        if (rows.scanned() || (!complete && directoriesChanged)) {
            return false;
        }
        for (int i = 0; i < rows.size(); i++) {
            if (overlay.holds(rows.table(i), rows.key(i))) {
                return false;
            }
        }
        return true;
    }
}
