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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundHook;
import org.tcnfs.nfs4.export.ExportOptions.TxnPolicy;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.StateJournal;
import org.tcnfs.nfs4.status.DelayException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.status.NotSuppException;
import org.tcnfs.nfs4.status.ServerFaultException;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.proto.ObjectHandle;
import org.tcnfs.proto.RecoveryRecord;
import org.tcnfs.proto.RecoveryRecords;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.backup.BackupManager;
import org.tcnfs.txn.handles.FsyncPool;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.handles.SideTable;
import org.tcnfs.txn.handles.TxnBuffer;
import org.tcnfs.txn.lock.LockKey;
import org.tcnfs.txn.lock.LockManager;
import org.tcnfs.txn.lock.LockMode;
import org.tcnfs.txn.lock.LockRequest;
import org.tcnfs.txn.lock.LockSet;
import org.tcnfs.txn.lock.LockTimeoutException;
import org.tcnfs.txn.plan.CompoundPlanner;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.ObjectRef;
import org.tcnfs.txn.plan.PathResolver;
import org.tcnfs.txn.plan.TxnPlan;
import org.tcnfs.txn.undo.UndoExecutor;

/**
 * Runs COMPOUNDs as all-or-nothing transactions on the exports given to it (DESIGN.md, "The transaction
 * protocol"). A compound works on the export of the handle its first PUTFH puts (PUTROOTFH: the export at
 * the root of the name space, if there is one); that export's {@code txn=} policy for the client decides:
 * {@code request} runs it as a transaction when the RPC procedure carries the flag ({@code 0x80000001}),
 * {@code always} also runs every plannable compound that changes something as one, {@code never} refuses
 * the flag with NFS4ERR_NOTSUPP. Compounds that are not transactions still take the plan's locks (from the
 * first operation after SEQUENCE to the reply; no backups, no record, no undo), so they never see or
 * create half of a transaction; a plain compound the planner cannot plan runs without locks. A plain
 * compound that holds its locks also runs bound to a buffer ({@link HandleTable#plainBuffer()}): its
 * handle changes and the fsyncs of its stable WRITEs wait for its end and are made durable there, once,
 * before the reply (one LMDB commit per compound instead of one per operation). A read-only transaction
 * gets no id, record or backups.
 *
 * <p><b>Protocol.</b> At the first operation after SEQUENCE (a replay never starts a transaction):
 * <ol>
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
 *       deletes the record: the commit point. Backups are deleted by a background cleaner;</li>
 *   <li>any other status: the buffer is dropped, open, share and lock state the compound changed is put
 *       back as it was before it ({@link StateJournal}: created states released, upgrades, downgrades,
 *       byte-range locks and seqids restored), and
 *       the {@link UndoExecutor} takes the files back from the record alone (the code startup recovery
 *       runs), makes that durable, and the record is deleted. The compound keeps the failing operation's
 *       status. If the undo fails the compound answers NFS4ERR_SERVERFAULT, the record stays for recovery,
 *       and the transaction's lock keys are fenced (NFS4ERR_DELAY) until a restart recovers them.</li>
 * </ol>
 * Locks are released after commit or rollback, never before.
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

    private static final int MAX_PLANS = 3;

    private final Map<String, Area> areas = new HashMap<>();
    private final Area pseudoRoot;
    private final HandleTable handles;
    private final SideTable records;
    private final LockManager locks;
    private final Duration lockTimeout;
    private final CrashPoints crashPoints;
    private final TxnIds txnIds;
    private final CompoundPlanner planner = new CompoundPlanner();
    private final ExecutorService cleaner;
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong rollbacks = new AtomicLong();
    private final AtomicLong undoFailures = new AtomicLong();
    private final AtomicLong stateRestoreFailures = new AtomicLong();
    private final Set<LockKey> fenced = ConcurrentHashMap.newKeySet();

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
        this.locks = Objects.requireNonNull(locks, "locks");
        this.lockTimeout = Objects.requireNonNull(lockTimeout, "lockTimeout");
        this.crashPoints = Objects.requireNonNull(crashPoints, "crashPoints");
        Area root = null;
        for (TxnExport export : exports) {
            Area area = new Area(export, new HandleTableResolver(handles, export.exportId()),
                    new UndoExecutor(export.root(), export.backups(), crashPoints, "mid-undo-"));
            areas.put(export.exportId(), area);
            if (export.atPseudoRoot()) {
                root = area;
            }
        }
        this.pseudoRoot = root;
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
        context.setExtension(new Txn(args, isTransactional(context.procedure())));
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
            begin(context, txn);
        }
        if (txn.lockSet == null) {
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
        if (txn.preparer != null) {
            if (!txn.upFront) {
                prepareOp(txn, index);
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
        if (!(context.extension() instanceof Txn txn) || txn.lockSet == null) {
            return;
        }
        context.setExtension(null);
        unbind(txn);
        if (!txn.transactional) {
            try {
                commitPlain(txn);
            } finally {
                txn.lockSet.close();
            }
            return;
        }
        boolean undone = true;
        try {
            if (res.status == NfsStatus.OK.code()) {
                try {
                    commit(txn);
                    return;
                } catch (IOException | RuntimeException e) {
                    LOG.error("txn {}: commit failed, rolling back: {}", txn.id, e.toString());
                    undone = rollback(context, txn);
                    throw new ServerFaultException("commit failed: " + e.getMessage(), e);
                }
            }
            undone = rollback(context, txn);
            if (!undone) {
                throw new ServerFaultException("undo failed; the transaction's record stays for recovery");
            }
        } finally {
            if (!undone) {
                txn.lockSet.keys().forEach((key, mode) -> {
                    if (mode == LockMode.WRITE) {
                        fenced.add(key);
                    }
                });
            }
            txn.lockSet.close();
        }
    }

    /** Stops the background cleaner (pending deletions are dropped; the backups stay on disk). */
    @Override
    public void close() {
        cleaner.shutdownNow();
    }

    // ---- begin ------------------------------------------------------------------------------------------

    private void begin(CompoundContext context, Txn txn) throws IOException {
        Optional<Area> found = areaOf(txn.args);
        if (found.isEmpty()) {
            if (txn.transactional) {
                throw new NotSuppException("a transactional compound starts with PUTFH of a handle of an export that "
                        + "runs transactions" + (pseudoRoot == null ? "" : ", or with PUTROOTFH"));
            }
            return;
        }
        Area area = found.get();
        TxnPolicy policy = area.export.policy().forClient(context.clientAddress());
        if (policy == TxnPolicy.NEVER && txn.transactional) {
            throw new NotSuppException("export " + area.export.exportId() + " does not run transactions (txn=never)");
        }
        for (int attempt = 1; ; attempt++) {
            // The last attempt locks the whole export first and plans under that lock, where no name can
            // change: a compound is never refused because others kept renaming what it uses.
            boolean exclusive = attempt >= MAX_PLANS;
            LockSet set = null;
            if (exclusive) {
                LOG.debug("planning under an exclusive lock of export {} after {} attempts", area.export.exportId(),
                        attempt - 1);
                set = acquire(List.of(new LockRequest(LockKey.root(area.export.exportId()), LockMode.WRITE)));
            }
            boolean hold = false;
            try {
                TxnPlan plan = planner.plan(txn.args, area.resolver);
                if (policy == TxnPolicy.ALWAYS && plan.unplannable().isEmpty() && plan.mutates()) {
                    txn.transactional = true;
                }
                if (plan.unplannable().isPresent() && !txn.transactional) {
                    LOG.debug("plain compound runs without locks: {}", plan.unplannable().get());
                    return;
                }
                if (plan.unplannable().isPresent()) {
                    LOG.info("refusing transactional compound: {}", plan.unplannable().get());
                    throw new NotSuppException("not plannable as a transaction: " + plan.unplannable().get());
                }
                if (!fenced.isEmpty() && plan.lockRequests().stream().anyMatch(r -> fenced.contains(r.key()))) {
                    throw new DelayException("objects of a transaction whose undo failed are fenced until recovery");
                }
                if (set == null) {
                    set = acquire(plan.lockRequests());
                }
                if (plan.assumptionsHold(area.resolver)) {
                    txn.plan = plan;
                    txn.area = area;
                    if (txn.transactional) {
                        start(txn);
                    } else {
                        txn.buffer = handles.plainBuffer();
                    }
                    txn.lockSet = set;
                    hold = true;
                    return;
                }
                if (exclusive) {
                    throw new DelayException("the plan's view of the name space does not hold even under an "
                            + "exclusive lock of the export");
                }
            } finally {
                if (!hold && set != null) {
                    set.close();
                }
            }
        }
    }

    private LockSet acquire(List<LockRequest> requests) throws IOException {
        try {
            return locks.acquire(requests, lockTimeout);
        } catch (LockTimeoutException e) {
            throw new DelayException("locks busy: " + e.getMessage(), e);
        }
    }

    /**
     * The export a compound works on: the export of the handle its first PUTFH puts (PUTROOTFH: the export
     * at the root of the name space), if transactions run there.
     */
    private Optional<Area> areaOf(COMPOUND4args args) {
        for (nfs_argop4 op : args.argarray) {
            switch (op.argop) {
                case nfs_opnum4.OP_SEQUENCE:
                    continue;
                case nfs_opnum4.OP_PUTROOTFH:
                case nfs_opnum4.OP_PUTPUBFH:
                    return Optional.ofNullable(pseudoRoot);
                case nfs_opnum4.OP_PUTFH:
                    if (op.args instanceof PUTFH4args putfh && putfh.object.value != null
                            && putfh.object.value.length == ObjectHandle.LENGTH) {
                        return handles.node(Nfh.of(putfh.object.value)).map(n -> areas.get(n.exportId()));
                    }
                    return Optional.empty();
                default:
                    return Optional.empty();
            }
        }
        return Optional.empty();
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

    private void commit(Txn txn) throws IOException {
        syncTouched(txn);
        crashPoints.reach("before-commit");
        if (!txn.buffer.isEmpty() || txn.recorded) {
            txn.buffer.commit(batch -> {
                if (txn.recorded) {
                    batch.delete(records, key(txn.id));
                }
            });
        }
        crashPoints.reach("after-commit");
        commits.incrementAndGet();
        dropKeptObjects(txn);
        discardLater(txn);
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

    /** Rolls back; whether the undo succeeded (false: the record stays and the keys get fenced). */
    private boolean rollback(CompoundContext context, Txn txn) {
        rollbacks.incrementAndGet();
        txn.buffer.discard();
        releaseState(context, txn);
        if (!txn.recorded) {
            discardLater(txn);
            return true;
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
            return false;
        }
        LOG.debug("txn {} rolled back", txn.id);
        dropKeptObjects(txn);
        discardLater(txn);
        return true;
    }

    private void saveProgress(RecoveryRecord record) {
        byte[] value = RecoveryRecords.encode(record);
        handles.commitDurably(batch -> batch.put(records, key(record.txnId()), value));
    }

    /**
     * Puts open, share and lock state back as it was before the compound (see {@link StateJournal}); what
     * cannot be put back is logged at ERROR by the state table and counted.
     */
    private void releaseState(CompoundContext context, Txn txn) {
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

    private void discardLater(Txn txn) {
        BackupManager manager = txn.backups;
        long id = txn.id;
        if (manager == null || !Files.exists(manager.directory())) {
            return;
        }
        cleaner.execute(() -> {
            try {
                manager.discard();
            } catch (IOException | RuntimeException e) {
                LOG.warn("txn {}: deleting the backups failed (recovery's orphan cleanup will retry): {}", id,
                        e.toString());
            }
        });
    }

    /** An export with what compounds on it share. */
    private record Area(TxnExport export, PathResolver resolver, UndoExecutor undo) {
    }

    /** A compound's transaction state, kept in the compound context. */
    private static final class Txn {
        final COMPOUND4args args;
        boolean transactional;
        Area area;
        final Instant started = Instant.now();
        boolean begun;
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

        Txn(COMPOUND4args args, boolean transactional) {
            this.args = args;
            this.transactional = transactional;
        }
    }
}
