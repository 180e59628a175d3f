package org.tcnfs.txn;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.StateJournal;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.proto.RecoveryRecord;
import org.tcnfs.proto.RecoveryRecords;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.backup.BackupManager;
import org.tcnfs.txn.handles.FsyncPool;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.SharedFsync;
import org.tcnfs.txn.handles.TxnBuffer;
import org.tcnfs.txn.lock.LockMode;
import org.tcnfs.txn.lock.LockSet;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.ObjectRef;
import org.tcnfs.txn.plan.TxnPlan;
import org.tcnfs.txn.undo.UndoExecutor;

/**
 * What one transactional compound does to the file system, the handle table and the open and lock state
 * at each step of its {@link Transaction} (DESIGN.md, "The transaction protocol"), without the wire:
 * {@link #prepare()} gives it a buffer and, if it changes anything, an id, a backup directory and its undo
 * prepared up front (backups durable, then the recovery record made durable by the handle table's row journal, else
 * by one durable LMDB commit), or, for a compound that renames or reuses a name it vacated, {@link #beforeOp}
 * prepares each operation's part right before it runs; {@link #commit()} fsyncs what it touched and applies its
 * buffer while deleting the record (the commit point: one journal record and flush, else one durable LMDB commit);
 * {@link #afterCommit()} drops kept victims and queues the backups for deletion;
 * {@link #rollback()} drops the buffer, puts open and lock state back ({@link StateJournal}) and lets the
 * {@link UndoExecutor} take the files back from the record alone; {@link #undoFailed} fences the WRITE keys.
 * The order of these steps and the states are {@link Transaction}'s; {@link TransactionHook} only calls
 * them from the compound engine's hook points.
 *
 * <p>Not thread-safe: used on its compound's request thread.
 */
final class TransactionSteps implements Transaction.Steps {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionSteps.class);

    private final TransactionServices services;
    private final TxnExport export;
    private final UndoExecutor undo;
    private final int opCount;
    private final String tag;
    private TxnPlan plan;
    /** The buffer of the transaction that spans compounds this compound belongs to, or null. */
    private final TxnBuffer sharedBuffer;
    private final LockSet lockSet;
    private final Instant started = Instant.now();
    private long id;
    private BackupManager backups;
    private TxnBuffer buffer;
    private UndoPreparer preparer;
    private boolean upFront;
    private boolean recorded;
    /**
     * Whether the compound takes the light path ({@link LightPath}): its one change is atomic by itself, so its
     * backups are not made durable and no record is written unless it rolls back.
     */
    private boolean light;
    /**
     * Whether the light compound's one change is a WRITE the client sent as UNSTABLE4 ({@link LightPath#isUnstableWrite}):
     * its commit then fsyncs nothing; the file's next COMMIT makes it durable, as for a plain unstable WRITE.
     */
    private boolean unstableWrite;
    /**
     * Whether the light compound's one change creates an object (its buffer only gains rows): its rows then commit
     * alongside its fsyncs, as a plain create's do (a row durable before its name names nothing and answers
     * NFS4ERR_STALE; the client gets the handle only with the reply, after both).
     */
    private boolean createsOnly;
    /**
     * Whether a REMOVE of the full path moved its victim into the backup directory (the removal itself, {@link
     * #beforeOp}): the commit then syncs the backup directory before the directories the victims left, where the file
     * system does not log in order (under strict POSIX renames a cut must not keep a victim's removal without its new
     * entry, which the undo moves back; docs/durability.md, "Strict renames").
     */
    private boolean movedIntoBackups;
    private final COMPOUND4args args;
    private final List<UndoStep> steps = new ArrayList<>();
    private OpenStateTable opens;
    private StateJournal stateJournal;
    private OpenStateTable.JournalBinding stateBinding;

    /**
     * @param services what all transactions share
     * @param export the export the compound works on
     * @param undo the export's undo executor
     * @param args the compound
     * @param plan its plan
     * @param lockSet the locks it holds (fenced if its undo fails)
     */
    TransactionSteps(TransactionServices services, TxnExport export, UndoExecutor undo, COMPOUND4args args,
            TxnPlan plan, LockSet lockSet) {
        this(services, export, undo, args, plan, lockSet, null);
    }

    /**
     * One compound of a transaction that spans compounds: like the other constructor, but its handle-table
     * changes go into {@code sharedBuffer}, the buffer of the whole transaction, which it neither commits nor
     * discards on its own (see {@link MultiTransaction}).
     */
    TransactionSteps(TransactionServices services, TxnExport export, UndoExecutor undo, COMPOUND4args args,
            TxnPlan plan, LockSet lockSet, TxnBuffer sharedBuffer) {
        this.sharedBuffer = sharedBuffer;
        this.services = Objects.requireNonNull(services, "services");
        this.export = Objects.requireNonNull(export, "export");
        this.undo = Objects.requireNonNull(undo, "undo");
        this.args = Objects.requireNonNull(args, "args");
        this.opCount = args.argarray.length;
        this.tag = args.tag == null ? "" : args.tag;
        this.plan = Objects.requireNonNull(plan, "plan");
        this.lockSet = Objects.requireNonNull(lockSet, "lockSet");
    }

    /** How the log names the transaction: its id once it has one, else its tag. */
    String label() {
        return id != 0 ? Long.toString(id) : "(tag " + tag + ")";
    }

    /** The transaction's id, 0 until {@link #prepare()} gave one to a transaction that changes something. */
    long id() {
        return id;
    }

    /** The buffer the operations' handle-table changes wait in; null before {@link #prepare()}. */
    TxnBuffer buffer() {
        return buffer;
    }

    /**
     * The compound of a transaction that spans compounds has run all its operations: forget its plan (its
     * record, backups and touched objects stay until the transaction ends).
     */
    void compoundEnded() {
        plan = null;
    }

    /** Fsyncs the files and directories the compound touched (the data half of a commit). */
    void syncForCommit() throws IOException {
        syncTouched();
    }

    /** Bytes of the backups this compound made so far. */
    long backupBytes() {
        return backups == null ? 0 : backups.bytesCharged();
    }

    /** Whether the recovery record is in LMDB. */
    boolean recorded() {
        return recorded;
    }

    /** Whether the compound takes the light path (no durable backups, no record unless it rolls back). */
    boolean light() {
        return light;
    }

    /**
     * Gives the transaction its buffer, and, if it changes anything, its id and backups, and prepares all of
     * its undo if that can be done now. A read-only transaction needs no id, record or backups: its locks
     * isolate it, and its rollback only puts back the open and lock state it changed.
     *
     * @throws org.tcnfs.txn.backup.BackupBudgetExceededException if its backups would exceed the budget
     *     (before anything changed)
     */
    void prepare() throws IOException {
        buffer = sharedBuffer != null ? sharedBuffer : services.handles.buffer();
        if (!plan.mutates()) {
            return;
        }
        id = services.txnIds.next();
        backups = export.backups().forTransaction(Long.toString(id));
        preparer = new UndoPreparer(export.root(), backups, () -> export.fs().removesIntoPlace());
        backups.checkBudget(plan.mutations(), preparer::regularFile); // NFS4ERR_NOSPC before anything changes
        upFront = preparableUpFront(plan);
        if (upFront && sharedBuffer == null) {
            buffer.keepFileSyncs(); // each name means one object throughout: the commit may match syncs by path
        }
        if (sharedBuffer == null) {
            Optional<String> whyNot = LightPath.whyNot(plan, args, () -> export.fs().createsAtomically());
            light = whyNot.isEmpty();
            unstableWrite = light && LightPath.isUnstableWrite(plan, args);
            createsOnly = light && plan.mutations().stream().allMatch(m -> m instanceof Mutation.Creation);
            if (LOG.isTraceEnabled()) {
                LOG.trace("txn {} (tag {}): {}", id, tag, whyNot.map(w -> "full path: " + w).orElse("light path"));
            }
        }
        if (upFront && plan.mutates()) {
            Function<ObjectRef, Optional<ObjectPath>> atOrigin = ObjectRef::origin;
            for (Mutation m : plan.mutations()) {
                steps.addAll(preparer.stepsFor(m, atOrigin));
            }
            makeDurable(steps);
        }
        preparer.operationsMayRun();
    }

    /**
     * Makes the backups durable and writes the record before the change they prepare for; on the light path
     * only if the prepared steps rule it out after all (a directory moved aside first), else nothing.
     */
    private void makeDurable(List<UndoStep> prepared) throws IOException {
        if (light && LightPath.whyNotSteps(prepared, args, () -> export.fs().removesIntoPlace())
                .isEmpty()) {
            return;
        }
        light = false;
        if (recordMayRaceBackups(steps)) {
            // no mutation runs before both are durable, and these steps' undo does nothing without its backup
            FsyncPool.runAll(List.of(this::writeRecord, this::makeBackupsDurable));
        } else {
            makeBackupsDurable();
            writeRecord();
        }
    }

    /**
     * Whether the record may become durable together with the backups instead of after them (one flush latency
     * less, e.g. for a compound of REMOVEs): when every step so far only puts back a name kept in the backup
     * directory ({@link UndoStep.MoveBack}) or restores attributes. A crash after the record but before its
     * backups can only come before the compound's first change, and a MoveBack whose backup is missing does
     * nothing. Not for steps that restore data from a backup file, whose undo would fail without it.
     */
    static boolean recordMayRaceBackups(List<UndoStep> steps) {
        for (UndoStep step : steps) {
            if (!(step instanceof UndoStep.MoveBack) && !(step instanceof UndoStep.RestoreAttributes)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether every undo step can be prepared before the compound runs: each name then means the same
     * object from the first operation to the last. Not so once the compound renames, creates a name that an
     * earlier operation of it vacated, or removes a name an earlier LINK of it made.
     */
    static boolean preparableUpFront(TxnPlan plan) {
        if (!plan.renames().isEmpty()) {
            return false;
        }
        UpFront upFront = new UpFront();
        for (Mutation m : plan.mutations()) {
            if (!m.accept(upFront)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@link #preparableUpFront}, one kind of mutation at a time (a new kind does not compile until it says):
     * whether the undo of each mutation, in order, can still be prepared before the compound runs.
     */
    private static final class UpFront implements Mutation.Visitor<Boolean, RuntimeException> {
        /** Names an earlier REMOVE of the compound vacated. */
        private final Set<ObjectPath> vacated = new HashSet<>();

        @Override
        public Boolean removal(Mutation.Removal r) {
            if (r.object().origin().isPresent() && !r.object().origin().get().equals(r.object().path())) {
                // removes a name an earlier LINK of the compound gave an existing object: undo must put
                // that name back before it undoes what was done through it, so prepare op by op
                return false;
            }
            vacated.add(r.object().path());
            return true;
        }

        @Override
        public Boolean creation(Mutation.Creation c) {
            return !vacated.contains(c.object().path());
        }

        @Override
        public Boolean hardLink(Mutation.HardLink l) {
            return !vacated.contains(l.newName().path());
        }

        @Override
        public Boolean rename(Mutation.Rename r) {
            return false; // names mean other objects before and after it (preparableUpFront checks it first)
        }

        @Override
        public Boolean write(Mutation.Write w) {
            return true;
        }

        @Override
        public Boolean sizeChange(Mutation.SizeChange c) {
            return true;
        }

        @Override
        public Boolean attributeChange(Mutation.AttributeChange a) {
            return true;
        }
    }

    /**
     * Before operation {@code index} runs (the transaction RUNNING): prepares its part of the undo if the
     * transaction is prepared operation by operation, lets the preparer swap what the operation replaces,
     * and reaches the crash point {@code before-op-<index>}.
     *
     * @throws org.tcnfs.txn.backup.BackupBudgetExceededException if its backups would exceed the budget
     */
    void beforeOp(int index) throws IOException {
        if (preparer != null) {
            if (!upFront) {
                prepareOp(index);
            }
            if (light || removesIntoPlace(index)) {
                // a REMOVE of an empty directory or a non-directory moves it into the backup directory in one rename
                // that is the removal (LocalFileSystem.remove), on the full path after the record naming that place is
                // durable; a RENAME over a directory, or a REMOVE of one where the file system cannot, moves it aside
                // first and leaves a stand-in
                for (UndoPreparer.Swap swap : preparer.takeSwaps(index)) {
                    if (swap.fileId().isPresent()) {
                        buffer.keepRemoved(swap.fileId().getAsLong(), swap.kept().toAbsolutePath());
                        movedIntoBackups |= !light;
                    }
                }
            } else {
                preparer.swapBefore(index);
            }
        }
        if (light) {
            // its one change is durable with its directory's fsync, and no record's undo needs the removed row:
            // the row of an object it removes goes after that fsync, as a plain REMOVE's does (commit())
            buffer.removeRowsLate();
        }
        services.crashPoints.reach("before-op-", index);
    }

    /**
     * Whether {@link #beforeOp} and {@link #afterOp} of operation {@code index} change no object, so that what the
     * compound read before it may still serve after it where the file system revises it ({@code
     * CompoundScope.offer}, as around a plain compound's operations): a REMOVE of a compound prepared up front, on a
     * file system that removes into a given place. Its undo was prepared (and its backup directory made) before the
     * first operation; before it runs only hands the REMOVE the place to move its victim to (memory), and the rename
     * into that place is the removal itself, which the file system accounts for like any other.
     */
    boolean keepsObjectsAround(int index) {
        return preparer != null && upFront && removesIntoPlace(index);
    }

    /** Whether operation {@code index} is a REMOVE and the file system removes a directory into a given place. */
    private boolean removesIntoPlace(int index) {
        nfs_argop4[] ops = args.argarray;
        return index < ops.length && ops[index].argop == nfs_opnum4.OP_REMOVE
                && export.fs().removesIntoPlace();
    }

    /** Records the open and lock state the operation changes, to put back if the compound rolls back. */
    void bindStateJournal(OpenStateTable table) {
        if (stateJournal == null) {
            opens = table;
            stateJournal = opens.journal();
        }
        stateBinding = opens.bind(stateJournal);
    }

    /** Ends {@link #bindStateJournal}; harmless when not bound. */
    void unbindStateJournal() {
        if (stateBinding != null) {
            stateBinding.close();
            stateBinding = null;
        }
    }

    /** After operation {@code index} ran: reaches the crash point {@code after-op-<index>}. */
    void afterOp(int index) {
        services.crashPoints.reach("after-op-", index);
    }

    // ---- operation by operation ----------------------------------------------------------------------------

    private void prepareOp(int index) throws IOException {
        List<UndoStep> added = new ArrayList<>();
        Function<ObjectRef, Optional<ObjectPath>> whereNow = ref -> Optional.of(ref.path());
        try (HandleTable.Binding bound = services.handles.bind(buffer)) {
            for (Mutation m : plan.mutations()) {
                if (m.opIndex() == index) {
                    added.addAll(preparer.stepsFor(m, whereNow));
                }
            }
        }
        if (!added.isEmpty()) {
            steps.addAll(added);
            makeDurable(added);
        }
    }

    private void makeBackupsDurable() throws IOException {
        backups.makeDurable();
        Path dir = backups.directory();
        if (Files.isDirectory(dir)) {
            force(dir);
            // the backup area holds every transaction's backup directory: concurrent transactions share its fsync
            Path area = dir.getParent();
            BasicFileAttributes a = attributesOrNull(area);
            if (a != null) {
                sharedForce(services.handles.sharedFsync(), a.fileKey(), area).run();
            } else {
                force(area);
            }
        }
    }

    // ---- record, commit, rollback ------------------------------------------------------------------------

    private RecoveryRecord record() {
        Path root = export.root();
        RecoveryRecord.Builder b = RecoveryRecord.builder(id, export.exportId(), started)
                .backupDirectory(root.relativize(backups.directory().toAbsolutePath()).toString())
                .opCount(opCount)
                .tag(tag);
        steps.forEach(b::step);
        return b.build();
    }

    private void writeRecord() {
        byte[] value = RecoveryRecords.encode(record());
        // durable before it returns (the journal's flush or a durable LMDB commit), so before the first change
        services.handles.commitJournaled(batch -> batch.put(services.records, TransactionHook.key(id), value));
        boolean first = !recorded;
        recorded = true;
        if (first) {
            services.crashPoints.reach("after-record-durable");
        }
    }

    /**
     * Makes the data durable, then one journaled commit ({@link TxnBuffer#commitJournaled(
     * java.util.function.Consumer)}; else one durable LMDB commit) applies the buffer and deletes the record. A light
     * compound whose one change is an UNSTABLE4 WRITE syncs nothing: its reply says UNSTABLE4, and the file's COMMIT
     * makes it durable. A light compound that only creates commits its rows through the journal alongside its fsyncs,
     * as a plain create does.
     */
    @Override
    public void commit() throws IOException {
        if (light && createsOnly && !recorded && !buffer.isEmpty()) {
            services.crashPoints.reach("before-commit");
            syncTouchedAlongside(() -> {
                try {
                    buffer.commitJournaled();
                } catch (RuntimeException e) {
                    throw new IOException("committing the handle rows failed: " + e.getMessage(), e);
                }
            });
            return;
        }
        if (!(light && unstableWrite)) {
            syncTouched();
        }
        services.crashPoints.reach("before-commit");
        if (!buffer.isEmpty() || recorded) {
            // the commit point: the buffer's rows and the record's deletion in one journal record (one flush), else
            // one durable LMDB commit; a cut before it leaves the record (recovery undoes), after it all of it
            buffer.commitJournaled(batch -> {
                if (recorded) {
                    batch.delete(services.records, TransactionHook.key(id));
                }
            });
        }
        if (light) {
            // after the directory syncs above: a cut keeps a row that answers NFS4ERR_STALE, never an object without
            // its row (docs/durability.md, "Plain REMOVE: the row goes later")
            buffer.forgetRemovedRows();
        }
    }

    @Override
    public void afterCommit() {
        services.crashPoints.reach("after-commit");
        services.commits.incrementAndGet();
        if (light) {
            services.lightCommits.incrementAndGet();
        }
        dropKeptObjects();
        services.discardLater(backups, id);
    }

    /** Rolls back; throws if the undo failed (the record then stays, noting the failure). */
    @Override
    public void rollback() throws IOException {
        services.rollbacks.incrementAndGet();
        if (buffer != null) {
            buffer.discard();
        }
        releaseState();
        if (!recorded && light && !steps.isEmpty()) {
            // The light path's change may have happened: make the undo recoverable before its first change, as
            // every other transaction's is before its operations run (a crash in the middle of putting back the
            // bytes a truncation cut would otherwise leave half of it).
            services.lightRollbacks.incrementAndGet();
            makeBackupsDurable();
            writeRecord();
        }
        if (!recorded) {
            services.discardLater(backups, id);
            return;
        }
        AtomicReference<RecoveryRecord> latest = new AtomicReference<>(record());
        LOG.debug("txn {}: rolling back {}", id, latest.get().steps());
        try {
            undo.undo(latest.get(), progress -> {
                saveProgress(progress);
                latest.set(progress);
            });
            // after the undo's fsyncs (UndoExecutor): journaled, else a durable LMDB commit
            services.handles.commitJournaled(batch -> batch.delete(services.records, TransactionHook.key(id)));
        } catch (IOException | RuntimeException e) {
            services.undoFailures.incrementAndGet();
            LOG.error("txn {}: undo failed; its record stays for recovery at the next start and its objects answer "
                    + "NFS4ERR_DELAY until then: {}", id, e.toString(), e);
            LOG.error("txn {}: the record whose undo failed ({} of its steps undone, {} mode): {}", id,
                    latest.get().undoneSteps(), upFront ? "prepared up front" : "prepared per operation",
                    latest.get().steps());
            try {
                saveProgress(latest.get().withFailedUndo(e.toString()));
            } catch (RuntimeException again) {
                LOG.error("txn {}: cannot note the failed undo in its record: {}", id, again.toString());
            }
            throw e instanceof IOException io ? io : new IOException(e);
        }
        LOG.debug("txn {} rolled back", id);
        dropKeptObjects();
        services.discardLater(backups, id);
    }

    /** Fences the transaction's WRITE keys until a restart recovers them. */
    @Override
    public void undoFailed(Exception cause) {
        lockSet.keys().forEach((key, mode) -> {
            if (mode == LockMode.WRITE) {
                services.fenced.add(key);
            }
        });
    }

    private void saveProgress(RecoveryRecord record) {
        byte[] value = RecoveryRecords.encode(record);
        services.handles.commitJournaled(batch -> batch.put(services.records, TransactionHook.key(record.txnId()),
                value));
    }

    /**
     * Puts open, share and lock state back as it was before the compound (see {@link StateJournal}); what
     * cannot be put back is logged at ERROR by the state table and counted.
     */
    private void releaseState() {
        if (stateJournal == null || stateJournal.isEmpty()) {
            return;
        }
        int failed = opens.restore(stateJournal);
        if (failed > 0) {
            services.stateRestoreFailures.addAndGet(failed);
            LOG.error("txn {}: {} of the {} open and lock states the rolled-back compound changed could not be put "
                    + "back (see the errors above)", id, failed, stateJournal.size());
        }
    }

    private void syncTouched() throws IOException {
        syncTouchedAlongside(null);
    }

    /** {@link #syncTouched}, with {@code alongside} (if not null) run in the first wave, at once with the fsyncs. */
    private void syncTouchedAlongside(FsyncPool.Sync alongside) throws IOException {
        if (preparer == null) {
            if (alongside != null) {
                alongside.run();
            }
            return;
        }
        try (TxnBuffer.KeptFileSyncs kept = buffer.takeKeptFileSyncs()) {
            syncTouched(alongside, kept);
        }
    }

    /**
     * {@link #syncTouchedAlongside}, with the file syncs the compound's stable WRITEs kept ({@link
     * TxnBuffer#keepFileSyncs}): those run as they are, and a touched file at the path one was kept under is neither
     * looked at nor opened again.
     */
    private void syncTouched(FsyncPool.Sync alongside, TxnBuffer.KeptFileSyncs kept) throws IOException {
        SharedFsync shared = services.handles.sharedFsync();
        List<FsyncPool.Sync> syncs = new ArrayList<>(kept.tasks());
        Set<ObjectPath> syncedFiles = new HashSet<>();
        Map<ObjectPath, TouchedStat> stats = new HashMap<>(); // one lstat per path, for the files and directories both
        Function<ObjectPath, TouchedStat> stat = p -> stats.computeIfAbsent(p, q -> TouchedStat.of(preparer.local(q)));
        Map<ObjectPath, TouchedStat> changedDirectories = new LinkedHashMap<>();
        for (ObjectPath p : preparer.touchedFiles()) {
            Path file = preparer.local(p);
            if (kept.files().contains(file)) {
                syncedFiles.add(p); // a regular file a WRITE kept a sync of, the same object all along
                continue;
            }
            TouchedStat a = stat.apply(p);
            if (a.isRegularFile()) {
                syncs.add(sharedForce(shared, a.fileKey(), file));
                syncedFiles.add(p);
            } else if (a.isDirectory()) {
                changedDirectories.put(p, a);
            }
        }
        Set<ObjectPath> dirs = directoriesToSync(syncedFiles, stat);
        changedDirectories.forEach((p, a) -> {
            if (!dirs.contains(p)) {
                // a SETATTR of a directory (chmod -R sends one per directory): its mode, owner and times are durable
                // with its own fsync, as a file's are (a symbolic link's cannot be opened to sync; not done); also when
                // the rule of one log force left the directory's entries out: the SETATTR may follow the last change
                syncs.add(sharedForce(shared, a.fileKey(), preparer.local(p)));
            }
        });
        // Directories that gained a renamed entry first, in the same wave as the files: on a file system that does
        // not journal a rename as one transaction, a cut may then keep a moved object under both names (undo drops
        // the second link), never under neither (docs/durability.md, "Strict renames"). On a file system that logs in
        // order, the one directory left to sync forces every rename with the rest of the log. The directories of each
        // wave run one after another on one thread: the first fsync commits the journal for the others.
        Set<ObjectPath> targets = preparer.renameTargetDirs();
        List<FsyncPool.Sync> first = new ArrayList<>();
        List<FsyncPool.Sync> after = new ArrayList<>();
        boolean backupsFirst = movedIntoBackups && export.fs().orderedLogDevice().isEmpty();
        if (backupsFirst) {
            first.add(() -> force(backups.directory()));
        }
        for (ObjectPath p : dirs) {
            TouchedStat dir = stat.apply(p);
            if (dir.isDirectory()) {
                boolean inFirst = targets.contains(p) || targets.isEmpty() && !backupsFirst;
                (inFirst ? first : after).add(sharedForce(shared, dir.fileKey(), preparer.local(p)));
            }
        }
        if (!first.isEmpty()) {
            syncs.add(FsyncPool.oneAfterAnother(first));
        }
        if (alongside != null) {
            syncs.add(0, alongside); // on the calling thread
        }
        FsyncPool.runAll(syncs);
        FsyncPool.oneAfterAnother(after).run();
    }

    /**
     * The directories whose entries the commit makes durable: every one the compound changed; but where the export's
     * file system logs in order ({@link org.tcnfs.nfs4.vfs.VirtualFileSystem#orderedLogDevice()}) and all of them are
     * on its device, only the directory of the compound's last change of entries ({@link
     * UndoPreparer#lastEntryChange()}), whose fsync forces the log up to that change and so every earlier one, and
     * none when that change created a regular file the commit fsyncs anyway ({@code syncedFiles}: the file's fsync
     * forces the log up to its creation, the same file-system transaction as its entry). The rule of plain compounds
     * (docs/durability.md, "One log force per compound"); the left-out syncs are counted with theirs. A directory's
     * device is the one its undo's preparation read ({@link UndoPreparer#deviceOf}), so that only the directories left
     * to sync are looked at again; {@code stat} answers for the others.
     *
     * @param stat what one {@code lstat} finds at a path of {@link UndoPreparer#touchedDirs()}, read once
     */
    private Set<ObjectPath> directoriesToSync(Set<ObjectPath> syncedFiles, Function<ObjectPath, TouchedStat> stat) {
        Set<ObjectPath> dirs = preparer.touchedDirs();
        Optional<UndoPreparer.EntryChange> last = preparer.lastEntryChange();
        if (last.isEmpty() || !dirs.contains(last.get().directory())) {
            return dirs;
        }
        OptionalLong device = export.fs().orderedLogDevice();
        if (device.isEmpty()) {
            return dirs;
        }
        for (ObjectPath dir : dirs) {
            OptionalLong prepared = preparer.deviceOf(dir);
            if (prepared.isPresent() ? prepared.getAsLong() != device.getAsLong()
                    : !stat.apply(dir).onDevice(device.getAsLong())) {
                return dirs;
            }
        }
        Set<ObjectPath> kept = last.get().createdFile().filter(syncedFiles::contains).isPresent() ? Set.of()
                : Set.of(last.get().directory());
        services.handles.directorySyncsCovered(dirs.size() - kept.size());
        return kept;
    }

    /**
     * What one {@code lstat} of an object the compound touched tells its commit: whether it is still a regular file or
     * a directory, the key its fsync is shared under ({@link #sharedForce}), and its device ({@link
     * #directoriesToSync}); one system call for all of them, made at most once per path and commit (a directory whose
     * attributes and entries both changed is looked at once).
     *
     * @param fileKey the key of {@link BasicFileAttributes#fileKey()}; null when neither a regular file nor a directory
     * @param dev its device ({@code st_dev}); empty when it could not be read
     * @param gone whether nothing is there
     */
    private record TouchedStat(Object fileKey, boolean isRegularFile, boolean isDirectory, OptionalLong dev,
            boolean gone) {
        static TouchedStat of(Path path) {
            try {
                Map<String, Object> a = Files.readAttributes(path, "unix:dev,fileKey,isDirectory,isRegularFile",
                        LinkOption.NOFOLLOW_LINKS);
                boolean isDirectory = (Boolean) a.get("isDirectory");
                boolean isRegularFile = (Boolean) a.get("isRegularFile");
                return new TouchedStat(isDirectory || isRegularFile ? a.get("fileKey") : null, isRegularFile,
                        isDirectory, OptionalLong.of(((Number) a.get("dev")).longValue()), false);
            } catch (NoSuchFileException e) {
                return new TouchedStat(null, false, false, OptionalLong.empty(), true);
            } catch (IOException | RuntimeException e) {
                return new TouchedStat(null, false, false, OptionalLong.empty(), false);
            }
        }

        /**
         * Whether it is on device {@code dev} (not following a symbolic link), or gone: a directory the compound
         * removed after changing its entries (rm -rf) has nothing left to sync, and its removal is a change of its
         * parent's entries, which is among the directories checked. False if it could not be read otherwise.
         */
        boolean onDevice(long dev) {
            return gone || dev().equals(OptionalLong.of(dev));
        }
    }

    /** The object's attributes without following a symbolic link, or null if it cannot be read (gone). */
    private static BasicFileAttributes attributesOrNull(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * An fsync of {@code path} shared with the compounds that sync the same object ({@code key}, the object's
     * {@link BasicFileAttributes#fileKey()}: {@code st_dev} and {@code st_ino}; the compound holds its locks, and
     * nothing renames the backup area, so the path names that object until the sync ends); not shared when
     * {@code key} is null.
     */
    private static FsyncPool.Sync sharedForce(SharedFsync shared, Object key, Path path) {
        if (key == null) {
            return () -> force(path);
        }
        return () -> shared.sync(key, () -> force(path));
    }

    private static void force(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (NoSuchFileException e) {
            // gone since: nothing to make durable
        }
    }

    /** Deletes the kept victims of REMOVE and RENAME before the reply, so that link counts are right. */
    private void dropKeptObjects() {
        if (preparer == null) {
            return;
        }
        try {
            preparer.dropKeptObjects();
        } catch (IOException e) {
            LOG.warn("txn {}: deleting the kept victims failed (the cleaner deletes them later): {}", id,
                    e.toString());
        }
    }
}
