package org.tcnfs.txn;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundHook;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.StateJournal;
import org.tcnfs.nfs4.status.DelayException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.status.NoSpcException;
import org.tcnfs.nfs4.status.ServerFaultException;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.proto.RecoveryRecord;
import org.tcnfs.proto.RecoveryRecords;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.backup.BackupBudgetExceededException;
import org.tcnfs.txn.backup.BackupManager;
import org.tcnfs.txn.handles.FsyncPool;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.SideTable;
import org.tcnfs.txn.handles.TxnBuffer;
import org.tcnfs.txn.lock.LockKey;
import org.tcnfs.txn.lock.LockManager;
import org.tcnfs.txn.lock.LockMode;
import org.tcnfs.txn.lock.LockSet;
import org.tcnfs.txn.plan.CompoundPlanner;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.ObjectRef;
import org.tcnfs.txn.plan.TxnPlan;
import org.tcnfs.txn.undo.UndoExecutor;

/**
 * Runs COMPOUNDs as all-or-nothing transactions on the exports given to it (DESIGN.md, "The transaction protocol"); the
 * adapter between the compound engine's hook points and the transaction classes: {@link CompoundLocker} decides what a
 * compound locks and takes the locks, {@link Transaction} carries a transactional compound's state (PLANNED to
 * COMMITTED or ROLLED_BACK) and owns its locks, its {@link Transaction.Steps} here prepare, commit and undo it, and a
 * {@link CompoundGate} lets shutdown drain the compounds in flight. A compound works on the export of the handle its
 * first PUTFH puts, wherever it stands (PUTROOTFH: the export at the root of the name space, if there is one); that
 * export's {@code txn=} policy for the client decides: {@code request} runs it as a transaction when the RPC procedure
 * carries the flag ({@code 0x80000001}), {@code always} also runs every plannable compound that changes something as
 * one, {@code never} refuses the flag with NFS4ERR_NOTSUPP. Compounds that are not transactions still take the plan's
 * locks (from the first operation after SEQUENCE to the reply; no backups, no record, no undo), so they never see or
 * create half of a transaction, whatever operation comes first or last; a plain compound the planner cannot plan, or
 * whose first file handle is not one of an export, locks every export whole. A plain compound that holds its locks also
 * runs bound to a buffer ({@link HandleTable#plainBuffer()}): its handle changes and the fsyncs of its stable WRITEs
 * wait for its end and are made durable there, once, before the reply (one LMDB commit per compound instead of one per
 * operation). A read-only transaction gets no id, record or backups.
 *
 * <p><b>Protocol.</b> At the first operation after SEQUENCE (a replay never starts a transaction):
 * <ol>
 *   <li>enter the {@link CompoundGate} (closed at shutdown: NFS4ERR_DELAY);</li>
 *   <li>plan ({@link CompoundPlanner}; an unplannable transactional compound is refused with
 *       NFS4ERR_NOTSUPP before anything ran), lock all keys at once (timeout: NFS4ERR_DELAY), re-check the
 *       plan's assumptions (re-plan if they changed; the third attempt plans under an exclusive lock of the
 *       whole export, where nothing can change);</li>
 *   <li>prepare the undo ({@link UndoPreparer}): for most compounds all at once, against the tree as it is
 *       before the compound; backups made durable in one pass, then the recovery record written to LMDB
 *       (side table {@value #RECORDS_TABLE}) in one durable commit. A compound that renames, or that
 *       creates a name an earlier operation of it vacated, is prepared operation by operation instead,
 *       each mutating operation's part made durable (backups, then the record rewritten) right before it
 *       runs: what a name means there depends on the operations before it;</li>
 *   <li>run the operations, the thread bound to the transaction's {@link TxnBuffer}: handle-table changes
 *       wait there, invisible to other compounds;</li>
 *   <li>NFS4_OK: fsync the touched files and directories, then one LMDB commit applies the buffer and
 *       deletes the record: the commit point ({@link Transaction#commit()}). What follows it (dropping kept
 *       victims, queueing the backups for the background cleaner) never rolls back: its failures are logged
 *       and at worst leave backups for recovery's orphan cleanup;</li>
 *   <li>any other status: the buffer is dropped, open, share and lock state the compound changed is put
 *       back as it was before it ({@link StateJournal}: created states released, upgrades, downgrades,
 *       byte-range locks and seqids restored), and
 *       the {@link UndoExecutor} takes the files back from the record alone (the code startup recovery
 *       runs), makes that durable, and the record is deleted. The compound keeps the failing operation's
 *       status. If the undo fails the compound answers NFS4ERR_SERVERFAULT, the record stays for recovery,
 *       and the transaction's lock keys are fenced (NFS4ERR_DELAY) until a restart recovers them.</li>
 * </ol>
 * Locks are released after commit or rollback, never before ({@link Transaction#close()}); then the
 * compound leaves the gate. {@link #close()} closes the gate, drains the compounds in flight (bounded), then
 * stops the cleaner.
 *
 * <p><b>Threading.</b> One instance serves all requests; each compound's state lives in its
 * {@link CompoundContext#extension()} and is used on the request's thread only.
 */
public final class TransactionHook implements CompoundHook, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionHook.class);

    /** The side table of the handle table that holds the recovery records, keyed by transaction id. */
    public static final String RECORDS_TABLE = "txn-records";

    /** The transaction flag in the RPC procedure number. */
    public static final int TXN_FLAG = 0x80000000;

    /** How long shutdown waits for the compounds in flight, and then for the backup cleaner. */
    public static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(20);

    private final Map<String, Area> areas = new HashMap<>();
    private final HandleTable handles;
    private final SideTable records;
    private final CrashPoints crashPoints;
    private final TxnIds txnIds;
    private final CompoundLocker locker;
    private final ExecutorService cleaner;
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong rollbacks = new AtomicLong();
    private final AtomicLong undoFailures = new AtomicLong();
    private final AtomicLong stateRestoreFailures = new AtomicLong();
    private final Set<LockKey> fenced = ConcurrentHashMap.newKeySet();
    private final CompoundGate gate = new CompoundGate();

    /**
     * @param exports the exports transactions run on (each compound on one of them)
     * @param handles the handle table, which also holds the recovery records
     * @param locks the lock manager shared by all compounds
     * @param lockTimeout how long a compound waits for its locks before NFS4ERR_DELAY
     * @param crashPoints crash injection for tests; {@link CrashPoints#NONE} in production
     */
    public TransactionHook(List<TxnExport> exports, HandleTable handles, LockManager locks, Duration lockTimeout,
            CrashPoints crashPoints) {
        this.handles = Objects.requireNonNull(handles, "handles");
        this.records = handles.sideTable(RECORDS_TABLE);
        Objects.requireNonNull(locks, "locks");
        Objects.requireNonNull(lockTimeout, "lockTimeout");
        this.crashPoints = Objects.requireNonNull(crashPoints, "crashPoints");
        List<CompoundLocker.Export> lockerExports = new ArrayList<>();
        String rootExportId = null;
        for (TxnExport export : exports) {
            areas.put(export.exportId(), new Area(export,
                    new UndoExecutor(export.root(), export.backups(), crashPoints, "mid-undo-")));
            lockerExports.add(new CompoundLocker.Export(export.exportId(),
                    new HandleTableResolver(handles, export.exportId()), export.policy()));
            if (export.atPseudoRoot()) {
                rootExportId = export.exportId();
            }
        }
        this.locker = new CompoundLocker(lockerExports, rootExportId, handles, locks, lockTimeout, fenced);
        this.txnIds = new TxnIds(handles);
        this.cleaner = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tcnfs-backup-cleaner");
            t.setDaemon(true);
            return t;
        });
    }

    /** Transactions committed since the start. */
    public long commits() {
        return commits.get();
    }

    /** Transactions rolled back since the start. */
    public long rollbacks() {
        return rollbacks.get();
    }

    /** Rollbacks whose undo failed (their records stay) since the start. */
    public long undoFailures() {
        return undoFailures.get();
    }

    /**
     * Open and lock states that rollbacks could not put back as they were before the compound since the
     * start (each also logged at ERROR).
     */
    public long stateRestoreFailures() {
        return stateRestoreFailures.get();
    }

    /** Whether {@code procedure} carries the transaction flag. */
    public static boolean isTransactional(int procedure) {
        return (procedure & TXN_FLAG) != 0;
    }

    @Override
    public void beforeCompound(CompoundContext context, COMPOUND4args args) {
        handles.unbindCurrentThread();
        context.setExtension(new Txn(context, args, isTransactional(context.procedure())));
    }

    @Override
    public void beforeOp(CompoundContext context, int index, nfs_argop4 op) throws IOException {
        if (!(context.extension() instanceof Txn txn)) {
            return;
        }
        if (!txn.begun) {
            if (op.argop == nfs_opnum4.OP_SEQUENCE) {
                return;
            }
            txn.begun = true;
            if (!gate.enter()) {
                throw new DelayException("the server is shutting down");
            }
            txn.entered = true;
            try {
                begin(context, txn);
            } catch (BackupBudgetExceededException e) {
                discardUnstarted(txn, e);
                throw new NoSpcException(e.getMessage(), e);
            }
        }
        if (txn.lockSet == null) {
            return;
        }
        if (txn.conservative) {
            txn.binding = handles.bind(txn.buffer);
            return;
        }
        if (index >= txn.plan.coveredOps()) {
            // The planner expected an earlier operation to fail and locked nothing beyond it; it did not
            // fail (the tree changed between planning and running): go no further unlocked, let the client retry.
            LOG.debug("operation {} runs past the plan's end {}: NFS4ERR_DELAY", index, txn.plan.coveredOps());
            throw new DelayException("operation " + index + " runs past the plan's end " + txn.plan.coveredOps());
        }
        if (!txn.transactional) {
            txn.binding = handles.bind(txn.buffer);
            return;
        }
        txn.transaction.running();
        if (txn.preparer != null) {
            if (!txn.upFront) {
                try {
                    prepareOp(txn, index);
                } catch (BackupBudgetExceededException e) {
                    throw new NoSpcException(e.getMessage(), e);
                }
            }
            txn.preparer.swapBefore(index);
        }
        crashPoints.reach("before-op-", index);
        txn.binding = handles.bind(txn.buffer);
        bindStateJournal(context, txn);
    }

    @Override
    public void afterOp(CompoundContext context, int index, nfs_argop4 op, nfs_resop4 result) {
        if (!(context.extension() instanceof Txn txn) || txn.lockSet == null) {
            return;
        }
        unbind(txn);
        if (!txn.transactional) {
            return;
        }
        crashPoints.reach("after-op-", index);
    }

    @Override
    public void afterCompound(CompoundContext context, COMPOUND4res res) throws IOException {
        handles.unbindCurrentThread();
        if (!(context.extension() instanceof Txn txn)) {
            return;
        }
        context.setExtension(null);
        try {
            finish(txn, res);
        } finally {
            if (txn.entered) {
                gate.exit();
            }
        }
    }

    /** Commits or rolls back, then releases the locks; a plain compound commits its handle changes. */
    private void finish(Txn txn, COMPOUND4res res) throws IOException {
        if (txn.lockSet == null) {
            return;
        }
        unbind(txn);
        if (txn.transaction == null) {
            try {
                commitPlain(txn);
            } finally {
                txn.lockSet.close();
            }
            return;
        }
        try (Transaction transaction = txn.transaction) {
            if (res.status == NfsStatus.OK.code()) {
                try {
                    transaction.commit();
                } catch (IOException | RuntimeException e) {
                    throw new ServerFaultException("commit failed: " + e.getMessage(), e);
                }
            } else {
                transaction.rollback();
            }
            if (transaction.state() == Transaction.State.UNDO_FAILED) {
                throw new ServerFaultException("undo failed; the transaction's record stays for recovery");
            }
        }
    }

    /**
     * Stops taking new compounds (they get NFS4ERR_DELAY), waits for those in flight to commit or roll back
     * (at most {@link #DRAIN_TIMEOUT}), then stops the background cleaner after the deletions it has queued
     * (at most {@link #DRAIN_TIMEOUT} more; what it has not deleted stays for recovery's orphan cleanup).
     * Harmless twice.
     */
    @Override
    public void close() {
        int left = gate.closeAndDrain(DRAIN_TIMEOUT);
        if (left > 0) {
            LOG.warn("{} compounds still in flight after {}s; stopping anyway (an unfinished transaction is undone "
                    + "by recovery at the next start)", left, DRAIN_TIMEOUT.toSeconds());
        }
        cleaner.shutdown();
        try {
            if (!cleaner.awaitTermination(DRAIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("the backup cleaner did not finish in {}s; the backups it left are removed at the next "
                        + "start", DRAIN_TIMEOUT.toSeconds());
                cleaner.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cleaner.shutdownNow();
        }
    }

    // ---- begin ------------------------------------------------------------------------------------------

    private void begin(CompoundContext context, Txn txn) throws IOException {
        CompoundLocker.Admission admitted = locker.admit(txn.args, txn.transactional, context.clientAddress());
        if (admitted.locks() == null) {
            return;
        }
        txn.lockSet = admitted.locks();
        txn.transactional = admitted.transactional();
        if (admitted.wholeExports()) {
            txn.conservative = true;
            txn.buffer = handles.plainBuffer();
            return;
        }
        txn.plan = admitted.plan();
        txn.area = areas.get(admitted.exportId().orElseThrow());
        if (!txn.transactional) {
            txn.buffer = handles.plainBuffer();
            return;
        }
        // from here the transaction owns the locks: whatever fails rolls it back
        txn.transaction = new Transaction(txn::label, new Steps(txn));
        txn.transaction.locked(txn.lockSet);
        start(txn);
        txn.transaction.prepared();
    }

    /**
     * Gives the transaction its buffer, and, if it changes anything, its id and backups, and prepares all of
     * its undo if that can be done now. A read-only transaction needs no id, record or backups: its locks
     * isolate it, and its rollback only releases the open and lock state it created.
     */
    private void start(Txn txn) throws IOException {
        Area area = txn.area;
        txn.buffer = handles.buffer();
        if (!txn.plan.mutates()) {
            return;
        }
        txn.id = txnIds.next();
        txn.backups = area.export.backups().forTransaction(Long.toString(txn.id));
        txn.preparer = new UndoPreparer(area.export.root(), txn.backups);
        txn.backups.checkBudget(txn.plan.mutations(), txn.preparer::local); // NFS4ERR_NOSPC before anything changes
        txn.upFront = preparableUpFront(txn.plan);
        if (txn.upFront && txn.plan.mutates()) {
            Function<ObjectRef, Optional<ObjectPath>> atOrigin = ObjectRef::origin;
            for (Mutation m : txn.plan.mutations()) {
                txn.steps.addAll(txn.preparer.stepsFor(m, atOrigin));
            }
            makeBackupsDurable(txn);
            writeRecord(txn);
        }
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
        Set<ObjectPath> vacated = new HashSet<>();
        for (Mutation m : plan.mutations()) {
            if (m instanceof Mutation.Removal r) {
                if (r.object().origin().isPresent() && !r.object().origin().get().equals(r.object().path())) {
                    // removes a name an earlier LINK of the compound gave an existing object: undo must put
                    // that name back before it undoes what was done through it, so prepare op by op
                    return false;
                }
                vacated.add(r.object().path());
            } else if (m instanceof Mutation.Creation c && vacated.contains(c.object().path())) {
                return false;
            } else if (m instanceof Mutation.HardLink l && vacated.contains(l.newName().path())) {
                return false;
            }
        }
        return true;
    }

    // ---- operation by operation ----------------------------------------------------------------------------

    private void prepareOp(Txn txn, int index) throws IOException {
        List<UndoStep> added = new ArrayList<>();
        Function<ObjectRef, Optional<ObjectPath>> whereNow = ref -> Optional.of(ref.path());
        try (HandleTable.Binding bound = handles.bind(txn.buffer)) {
            for (Mutation m : txn.plan.mutations()) {
                if (m.opIndex() == index) {
                    added.addAll(txn.preparer.stepsFor(m, whereNow));
                }
            }
        }
        if (!added.isEmpty()) {
            txn.steps.addAll(added);
            makeBackupsDurable(txn);
            writeRecord(txn);
        }
    }

    private void makeBackupsDurable(Txn txn) throws IOException {
        txn.backups.makeDurable();
        Path dir = txn.backups.directory();
        if (Files.isDirectory(dir)) {
            force(dir);
            force(dir.getParent());
        }
    }

    private void unbind(Txn txn) {
        if (txn.binding != null) {
            txn.binding.close();
            txn.binding = null;
        }
        if (txn.stateBinding != null) {
            txn.stateBinding.close();
            txn.stateBinding = null;
        }
    }

    /** Records the open and lock state the operation changes, to put back if the compound rolls back. */
    private static void bindStateJournal(CompoundContext context, Txn txn) {
        if (txn.stateJournal == null) {
            txn.opens = context.server().state().opens();
            txn.stateJournal = txn.opens.journal();
        }
        txn.stateBinding = txn.opens.bind(txn.stateJournal);
    }

    // ---- record, commit, rollback ------------------------------------------------------------------------

    private RecoveryRecord record(Txn txn) {
        Path root = txn.area.export.root();
        RecoveryRecord.Builder b = RecoveryRecord.builder(txn.id, txn.area.export.exportId(), txn.started)
                .backupDirectory(root.relativize(txn.backups.directory().toAbsolutePath()).toString())
                .opCount(txn.args.argarray.length)
                .tag(txn.args.tag == null ? "" : txn.args.tag);
        txn.steps.forEach(b::step);
        return b.build();
    }

    private void writeRecord(Txn txn) {
        byte[] value = RecoveryRecords.encode(record(txn));
        handles.commitDurably(batch -> batch.put(records, key(txn.id), value));
        boolean first = !txn.recorded;
        txn.recorded = true;
        if (first) {
            crashPoints.reach("after-record-durable");
        }
    }

    /** The key of transaction {@code id}'s record. */
    public static byte[] key(long id) {
        return ByteBuffer.allocate(Long.BYTES).putLong(id).array();
    }

    /** What a transactional compound does at each step of its {@link Transaction}. */
    private final class Steps implements Transaction.Steps {
        private final Txn txn;

        Steps(Txn txn) {
            this.txn = txn;
        }

        /** Makes the data durable, then one LMDB commit applies the buffer and deletes the record. */
        @Override
        public void commit() throws IOException {
            syncTouched(txn);
            crashPoints.reach("before-commit");
            if (!txn.buffer.isEmpty() || txn.recorded) {
                txn.buffer.commit(batch -> {
                    if (txn.recorded) {
                        batch.delete(records, key(txn.id));
                    }
                });
            }
        }

        @Override
        public void afterCommit() {
            crashPoints.reach("after-commit");
            commits.incrementAndGet();
            dropKeptObjects(txn);
            discardLater(txn);
        }

        @Override
        public void rollback() throws IOException {
            TransactionHook.this.rollback(txn);
        }

        /** Fences the transaction's WRITE keys until a restart recovers them. */
        @Override
        public void undoFailed(Exception cause) {
            txn.lockSet.keys().forEach((key, mode) -> {
                if (mode == LockMode.WRITE) {
                    fenced.add(key);
                }
            });
        }
    }

    /**
     * Syncs the files a plain compound wrote with stable WRITEs and makes its handle changes durable in one
     * commit, whatever its status: its operations
     * are not undone, so what they changed must be found again after a crash. A failed commit answers
     * NFS4ERR_SERVERFAULT (the objects are there; their new handles are lost and get new ones on lookup).
     */
    private void commitPlain(Txn txn) throws IOException {
        IOException syncFailure = null;
        try {
            txn.buffer.syncPending();
        } catch (IOException e) {
            LOG.error("plain compound: syncing the files it wrote failed: {}", e.toString());
            syncFailure = e;
        }
        if (!txn.buffer.isEmpty()) {
            commitPlainHandles(txn);
        }
        if (syncFailure != null) {
            throw syncFailure;
        }
    }

    private void commitPlainHandles(Txn txn) throws IOException {
        try {
            txn.buffer.commit(batch -> { });
        } catch (RuntimeException e) {
            txn.buffer.discard();
            LOG.error("plain compound: committing its {} handle-table changes failed; the objects it created or "
                    + "renamed get new handles when looked up again: {}", txn.buffer.changedRows(), e.toString(), e);
            throw new ServerFaultException("handle table commit failed: " + e.getMessage(), e);
        }
    }

    /** Rolls back; throws if the undo failed (the record then stays, noting the failure). */
    private void rollback(Txn txn) throws IOException {
        rollbacks.incrementAndGet();
        if (txn.buffer != null) {
            txn.buffer.discard();
        }
        releaseState(txn);
        if (!txn.recorded) {
            discardLater(txn);
            return;
        }
        AtomicReference<RecoveryRecord> latest = new AtomicReference<>(record(txn));
        LOG.debug("txn {}: rolling back {}", txn.id, latest.get().steps());
        try {
            txn.area.undo.undo(latest.get(), progress -> {
                saveProgress(progress);
                latest.set(progress);
            });
            handles.commitDurably(batch -> batch.delete(records, key(txn.id)));
        } catch (IOException | RuntimeException e) {
            undoFailures.incrementAndGet();
            LOG.error("txn {}: undo failed; its record stays for recovery at the next start and its objects answer "
                    + "NFS4ERR_DELAY until then: {}", txn.id, e.toString(), e);
            LOG.error("txn {}: the record whose undo failed ({} of its steps undone, {} mode): {}", txn.id,
                    latest.get().undoneSteps(), txn.upFront ? "prepared up front" : "prepared per operation",
                    latest.get().steps());
            try {
                saveProgress(latest.get().withFailedUndo(e.toString()));
            } catch (RuntimeException again) {
                LOG.error("txn {}: cannot note the failed undo in its record: {}", txn.id, again.toString());
            }
            throw e instanceof IOException io ? io : new IOException(e);
        }
        LOG.debug("txn {} rolled back", txn.id);
        dropKeptObjects(txn);
        discardLater(txn);
    }

    private void saveProgress(RecoveryRecord record) {
        byte[] value = RecoveryRecords.encode(record);
        handles.commitDurably(batch -> batch.put(records, key(record.txnId()), value));
    }

    /**
     * Puts open, share and lock state back as it was before the compound (see {@link StateJournal}); what
     * cannot be put back is logged at ERROR by the state table and counted.
     */
    private void releaseState(Txn txn) {
        if (txn.stateJournal == null || txn.stateJournal.isEmpty()) {
            return;
        }
        int failed = txn.opens.restore(txn.stateJournal);
        if (failed > 0) {
            stateRestoreFailures.addAndGet(failed);
            LOG.error("txn {}: {} of the {} open and lock states the rolled-back compound changed could not be put "
                    + "back (see the errors above)", txn.id, failed, txn.stateJournal.size());
        }
    }

    private void syncTouched(Txn txn) throws IOException {
        if (txn.preparer == null) {
            return;
        }
        List<FsyncPool.Sync> syncs = new ArrayList<>();
        for (ObjectPath p : txn.preparer.touchedFiles()) {
            Path file = txn.preparer.local(p);
            if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                syncs.add(() -> force(file));
            }
        }
        for (ObjectPath p : txn.preparer.touchedDirs()) {
            Path dir = txn.preparer.local(p);
            if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                syncs.add(() -> force(dir));
            }
        }
        FsyncPool.runAll(syncs);
    }

    private static void force(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (NoSuchFileException e) {
            // gone since: nothing to make durable
        }
    }

    /** Deletes the kept victims of REMOVE and RENAME before the reply, so that link counts are right. */
    private static void dropKeptObjects(Txn txn) {
        if (txn.preparer == null) {
            return;
        }
        try {
            txn.preparer.dropKeptObjects();
        } catch (IOException e) {
            LOG.warn("txn {}: deleting the kept victims failed (the cleaner deletes them later): {}", txn.id,
                    e.toString());
        }
    }

    /**
     * Deletes the backups a transaction refused before its record was written made (and gives their bytes
     * back to the budget): nothing changed, so nothing will undo them.
     */
    private static void discardUnstarted(Txn txn, Exception refusal) {
        if (txn.lockSet != null || txn.backups == null || txn.recorded) {
            return;
        }
        try {
            txn.backups.discard();
        } catch (IOException | RuntimeException e) {
            refusal.addSuppressed(e);
        }
    }

    private void discardLater(Txn txn) {
        BackupManager manager = txn.backups;
        long id = txn.id;
        if (manager == null || !Files.exists(manager.directory())) {
            return;
        }
        try {
            cleaner.execute(() -> {
                try {
                    manager.discard();
                } catch (IOException | RuntimeException e) {
                    LOG.warn("txn {}: deleting the backups failed (recovery's orphan cleanup will retry): {}", id,
                            e.toString());
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.info("txn {}: the backup cleaner has stopped; its backups stay for recovery's orphan cleanup", id);
        }
    }

    /** An export with what compounds on it share. */
    private record Area(TxnExport export, UndoExecutor undo) {
    }

    /** A compound's transaction state, kept in the compound context. */
    private static final class Txn {
        final COMPOUND4args args;
        boolean transactional;
        Area area;
        final Instant started = Instant.now();
        boolean begun;
        /** A plain compound under whole-export locks, without a plan. */
        boolean conservative;
        /** Whether the compound entered the {@link CompoundGate} (and must leave it). */
        boolean entered;
        /** The transaction of a transactional compound, once locked; null for a plain one. */
        Transaction transaction;
        final CompoundContext context;
        TxnPlan plan;
        LockSet lockSet;
        long id;
        BackupManager backups;
        TxnBuffer buffer;
        HandleTable.Binding binding;
        UndoPreparer preparer;
        boolean upFront;
        boolean recorded;
        final List<UndoStep> steps = new ArrayList<>();
        OpenStateTable opens;
        StateJournal stateJournal;
        OpenStateTable.JournalBinding stateBinding;

        /** How the log names the transaction: its id once it has one, else its tag. */
        String label() {
            return id != 0 ? Long.toString(id) : "(tag " + args.tag + ")";
        }

        Txn(CompoundContext context, COMPOUND4args args, boolean transactional) {
            this.context = context;
            this.args = args;
            this.transactional = transactional;
        }
    }
}
