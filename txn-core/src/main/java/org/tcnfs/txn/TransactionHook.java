package org.tcnfs.txn;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundHook;
import org.tcnfs.nfs4.export.ExportOptions.TxnPolicy;
import org.tcnfs.nfs4.export.PseudoFs;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.StateJournal;
import org.tcnfs.nfs4.status.DelayException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.rpc.SpanningTransactions;
import org.tcnfs.nfs4.status.NoSpcException;
import org.tcnfs.nfs4.status.NotSuppException;
import org.tcnfs.nfs4.status.ServerFaultException;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.txn.backup.BackupBudgetExceededException;
import org.tcnfs.proto.ObjectHandle;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.handles.TxnBuffer;
import org.tcnfs.txn.lock.LockKey;
import org.tcnfs.txn.lock.LockManager;
import org.tcnfs.txn.lock.LockSet;
import org.tcnfs.txn.lock.PendingDurability;
import org.tcnfs.txn.plan.CompoundPlanner;
import org.tcnfs.txn.plan.PathResolver;
import org.tcnfs.txn.plan.Retransmissions;
import org.tcnfs.txn.plan.TxnPlan;
import org.tcnfs.txn.undo.UndoExecutor;

/**
 * Runs COMPOUNDs as all-or-nothing transactions on the exports given to it (DESIGN.md, "The transaction protocol"); the
 * adapter between the compound engine's hook points and the transaction classes: {@link CompoundLocker} decides what a
 * compound locks and takes the locks, {@link Transaction} carries a transactional compound's state (PLANNED to
 * COMMITTED or ROLLED_BACK) and owns its locks, its {@link TransactionSteps} prepare, commit and undo it, and a
 * {@link CompoundGate} lets shutdown drain the compounds in flight. A compound works on the export of the handle its
 * first PUTFH puts, wherever it stands (PUTROOTFH: the export at the root of the name space, if there is one); that
 * export's {@code txn=} policy for the client decides: {@code request} runs it as a transaction when the RPC procedure
 * carries the flag ({@code 0x80000001}), {@code always} also runs every plannable compound that changes something as
 * one, {@code never} refuses the flag with NFS4ERR_NOTSUPP. Compounds that are not transactions still take the plan's
 * locks (from the first operation after SEQUENCE to the reply; no backups, no record, no undo), so they never see or
 * create half of a transaction, whatever operation comes first or last; a plain compound the planner cannot plan, or
 * whose first file handle is not one of an export, locks every export whole; a plain compound that only reads runs
 * without plan or keys while no compound holds or waits for a WRITE lock (a quiet read, see {@link CompoundLocker}),
 * which writers wait for. A plain compound that holds its locks also
 * runs bound to a buffer ({@link HandleTable#plainBuffer()}): its handle changes and the fsyncs of its stable WRITEs
 * wait for its end and are made durable there, once, before the reply (one LMDB commit per compound instead of one per
 * operation). A read-only transaction gets no id, record or backups; one that only reads (no operation changes an
 * object or open state) and starts with PUTFH of a handle of an export that runs transactions runs as a plain compound
 * that only reads, a quiet read when no writer is about ({@link #readsOnlyAsPlain}).
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

    /**
     * Whether plain compounds release their locks before their flushes (early lock release, docs/durability.md);
     * {@code -Dtcnfs.early-lock-release=false} turns it off, for A/B measurements of one build.
     */
    static final boolean EARLY_LOCK_RELEASE =
            !"false".equalsIgnoreCase(System.getProperty("tcnfs.early-lock-release", "true"));

    /** The side table of the handle table that holds the recovery records, keyed by transaction id. */
    public static final String RECORDS_TABLE = "txn-records";

    /** The transaction flag in the RPC procedure number. */
    public static final int TXN_FLAG = 0x80000000;

    /** How long shutdown waits for the compounds in flight, and then for the backup cleaner. */
    public static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(20);

    private final Map<String, Area> areas = new ConcurrentHashMap<>();
    private final HandleTable handles;
    private final CompoundLocker locker;
    private final TransactionServices services;
    private final CompoundGate gate = new CompoundGate();
    private final CrashPoints crashPoints;
    private final SpanningTxnRegistry spanning;

    /**
     * @param exports the exports transactions run on (each compound on one of them)
     * @param handles the handle table, which also holds the recovery records
     * @param locks the lock manager shared by all compounds
     * @param lockTimeout how long a compound waits for its locks before NFS4ERR_DELAY
     * @param crashPoints crash injection for tests; {@link CrashPoints#NONE} in production
     */
    public TransactionHook(List<TxnExport> exports, HandleTable handles, LockManager locks, Duration lockTimeout,
            CrashPoints crashPoints) {
        this(exports, handles, locks, lockTimeout, crashPoints, SpanningLimits.DEFAULT);
    }

    /**
     * @param exports the exports transactions run on (each compound on one of them)
     * @param handles the handle table, which also holds the recovery records
     * @param locks the lock manager shared by all compounds
     * @param lockTimeout how long a compound waits for its locks before NFS4ERR_DELAY
     * @param crashPoints crash injection for tests; {@link CrashPoints#NONE} in production
     * @param spanningLimits the bounds of transactions that span compounds
     */
    public TransactionHook(List<TxnExport> exports, HandleTable handles, LockManager locks, Duration lockTimeout,
            CrashPoints crashPoints, SpanningLimits spanningLimits) {
        this.handles = Objects.requireNonNull(handles, "handles");
        Objects.requireNonNull(locks, "locks");
        Objects.requireNonNull(lockTimeout, "lockTimeout");
        this.crashPoints = Objects.requireNonNull(crashPoints, "crashPoints");
        Set<LockKey> fenced = ConcurrentHashMap.newKeySet();
        List<CompoundLocker.Export> lockerExports = new ArrayList<>();
        String rootExportId = null;
        for (TxnExport export : exports) {
            areas.put(export.exportId(), new Area(export,
                    new UndoExecutor(export.root(), export.backups(), crashPoints, "mid-undo-")));
            lockerExports.add(lockerExport(export, handles));
            if (export.atPseudoRoot()) {
                rootExportId = export.exportId();
            }
        }
        this.locker = new CompoundLocker(lockerExports, rootExportId, handles, locks, lockTimeout, fenced,
                CompoundLocker.ReadOnlyCompounds.QUIET_WHEN_NO_WRITER);
        this.services = new TransactionServices(handles, crashPoints, fenced);
        this.spanning = new SpanningTxnRegistry(services, spanningLimits);
    }

    /** What serves TXN_BEGIN, TXN_COMMIT and TXN_ABORT (docs/protocol.md); TXN_COMPOUND runs through this hook. */
    public SpanningTransactions spanningTransactions() {
        return spanning;
    }

    /** Transactions that span compounds open now. */
    public int spanningOpen() {
        return spanning.openCount();
    }

    /** Operations the compounds of the open transactions that span compounds hold (bounded by txn-held-ops). */
    public long spanningHeldOps() {
        return spanning.heldOps.get();
    }

    /** Compounds refused because the open transactions that span compounds hold too many operations. */
    public long spanningHeldOpsRefusals() {
        return spanning.heldOpsRefusals.get();
    }

    /** Transactions that span compounds committed since the start. */
    public long spanningCommits() {
        return spanning.committed.get();
    }

    /** Transactions that span compounds aborted (by the client, a failure, a deadlock or a timeout) since the start. */
    public long spanningAborts() {
        return spanning.aborted.get();
    }

    /**
     * Adds an export, or replaces the one with the same id (its policy or backup area changed: a reloaded
     * exports file). Compounds that start from now on work with it; those already admitted finish with what
     * they began with. An export that is no longer served stays known here, harmlessly: no handle of it
     * reaches a compound any more.
     *
     * @throws IllegalArgumentException for the export at the root of the name space, which is fixed
     */
    public void putExport(TxnExport export) {
        Objects.requireNonNull(export, "export");
        if (export.atPseudoRoot()) {
            throw new IllegalArgumentException("the export at the root of the name space cannot be added later");
        }
        CompoundLocker.Export lockerExport = lockerExport(export, handles);
        // the area first: a compound the locker admits with the new export finds its area
        areas.put(export.exportId(), new Area(export,
                new UndoExecutor(export.root(), export.backups(), crashPoints, "mid-undo-")));
        locker.putExport(lockerExport);
    }

    /** The locker's view of an export: its resolver (through its place in the pseudo file system, if known). */
    private static CompoundLocker.Export lockerExport(TxnExport export, HandleTable handles) {
        PathResolver resolver = new HandleTableResolver(handles, export.exportId());
        Optional<List<String>> pseudo = export.pseudoComponents();
        if (!export.atPseudoRoot() && pseudo.isPresent() && !pseudo.get().isEmpty()) {
            resolver = new PseudoPathResolver(resolver, export.exportId(), pseudo.get());
        }
        return new CompoundLocker.Export(export.exportId(), resolver, export.policy(), pseudo);
    }

    /** Transactions committed since the start. */
    public long commits() {
        return services.commits.get();
    }

    /**
     * Transactions committed on the light path since the start (one change atomic by itself: no durable backups,
     * no recovery record; see {@link LightPath}).
     */
    public long lightCommits() {
        return services.lightCommits.get();
    }

    /**
     * Compounds admitted whose plan's assumptions were not checked again under the locks, since the start: the handle
     * table had not changed since planning began ({@link org.tcnfs.txn.handles.HandleTable#changeCount()}).
     */
    public long plansUnchecked() {
        return locker.plansUnchecked();
    }

    /** Plans whose assumptions were checked again under the locks (the handle table had changed), since the start. */
    public long plansRechecked() {
        return locker.plansRechecked();
    }

    /** Light-path transactions that rolled back after preparing an undo (their record then written) since the start. */
    public long lightRollbacks() {
        return services.lightRollbacks.get();
    }

    /** Transactions rolled back since the start. */
    public long rollbacks() {
        return services.rollbacks.get();
    }

    /** Rollbacks whose undo failed (their records stay) since the start. */
    public long undoFailures() {
        return services.undoFailures.get();
    }

    /**
     * Open and lock states that rollbacks could not put back as they were before the compound since the
     * start (each also logged at ERROR).
     */
    public long stateRestoreFailures() {
        return services.stateRestoreFailures.get();
    }

    /** Whether {@code procedure} carries the transaction flag. */
    public static boolean isTransactional(int procedure) {
        return (procedure & TXN_FLAG) != 0;
    }

    /** The key of transaction {@code id}'s record. */
    public static byte[] key(long id) {
        return ByteBuffer.allocate(Long.BYTES).putLong(id).array();
    }

    @Override
    public void beforeCompound(CompoundContext context, COMPOUND4args args) {
        handles.unbindCurrentThread();
        Txn txn = new Txn(args, isTransactional(context.procedure()));
        txn.call = context.spanningTxn();
        if (txn.call != null) {
            txn.transactional = true;
        }
        context.setExtension(txn);
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
            txn.begunAt = index;
            if (!gate.enter()) {
                throw new DelayException("the server is shutting down");
            }
            txn.entered = true;
            try {
                if (txn.call != null) {
                    beginSpanning(context, txn);
                } else {
                    begin(context, txn);
                }
            } catch (BackupBudgetExceededException e) {
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
        if (txn.multi != null) {
            try {
                txn.steps.beforeOp(index);
            } catch (BackupBudgetExceededException e) {
                throw new NoSpcException(e.getMessage(), e);
            }
            txn.binding = handles.bind(txn.buffer);
            txn.steps.bindStateJournal(context.server().state().opens());
            return;
        }
        if (txn.transaction == null) {
            txn.binding = handles.bind(txn.buffer);
            return;
        }
        txn.transaction.running();
        try {
            txn.steps.beforeOp(index);
        } catch (BackupBudgetExceededException e) {
            throw new NoSpcException(e.getMessage(), e);
        }
        txn.binding = handles.bind(txn.buffer);
        txn.steps.bindStateJournal(context.server().state().opens());
    }

    /**
     * Around the operations of a locked plain compound after the one it was planned and locked before, this hook only
     * binds and unbinds the compound's handle buffer: it changes no object, and what the compound read before was read
     * under its locks. Around a transaction's it does the same where its steps say their work changes no object
     * either ({@link TransactionSteps#keepsObjectsAround}: a REMOVE prepared up front whose victim the file system
     * moves into its place). Around the other operations of a transaction (backups, undo records), a transaction
     * spanning compounds' and an unlocked compound's, it says nothing.
     */
    @Override
    public boolean keepsObjectsAround(CompoundContext context, int index, nfs_argop4 op) {
        if (!(context.extension() instanceof Txn txn) || !txn.begun || index <= txn.begunAt || txn.lockSet == null
                || txn.multi != null || txn.call != null) {
            return false;
        }
        if (txn.transaction != null) {
            return txn.steps != null && txn.steps.keepsObjectsAround(index);
        }
        return !txn.transactional && txn.steps == null;
    }

    @Override
    public void afterOp(CompoundContext context, int index, nfs_argop4 op, nfs_resop4 result) {
        if (!(context.extension() instanceof Txn txn) || txn.lockSet == null) {
            return;
        }
        unbind(txn);
        if (txn.steps == null) {
            return;
        }
        txn.steps.afterOp(index);
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
        if (txn.multi != null) {
            finishSpanning(txn, res);
            return;
        }
        if (txn.lockSet == null) {
            return;
        }
        unbind(txn);
        if (txn.transaction == null) {
            if (releasesEarly(txn)) {
                commitPlainReleasingEarly(txn);
                return;
            }
            try {
                commitPlain(txn);
                txn.lockSet.awaitDependencies();
            } finally {
                txn.lockSet.close();
            }
            return;
        }
        try (Transaction transaction = txn.transaction) {
            try {
                // its commit point (or its answer) must not rest on changes of compounds that released early
                txn.lockSet.awaitDependencies();
            } catch (IOException e) {
                // closing the transaction rolls it back
                throw new ServerFaultException("a change this transaction saw could not be made durable: "
                        + e.getMessage(), e);
            }
            if (res.status == NfsStatus.OK.code()) {
                try {
                    if (handles.late().hasDirectorySyncs()) {
                        // what the transaction commits must not stand on an async name change a crash could lose
                        handles.late().syncDirectoriesNow();
                    }
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
        } else {
            spanning.close();
        }
        services.stopCleaner(DRAIN_TIMEOUT);
    }

    // ---- begin ------------------------------------------------------------------------------------------

    /**
     * Whether a client holds the file of a handle open, from the server's open state: the locker asks it about a
     * PUTFH whose handle does not resolve, which PUTFH accepts for a file that lost its last name while open.
     */
    private static Predicate<Inode> heldOpen(CompoundContext context) {
        return context.server().state().opens()::isOpen;
    }

    /** Tells the compound's NFSv4.0 OPENs how its plan took them ({@link CompoundContext#checkPlannedRetransmission}). */
    private static void planRetransmissions(CompoundContext context, TxnPlan plan) {
        Set<Integer> planned = plan.retransmissions();
        context.planRetransmissions(planned::contains);
    }

    /** Which NFSv4.0 OPENs of the compound only answer their open owner's last reply (the plan follows them). */
    private static Retransmissions retransmissions(CompoundContext context) {
        if (context.minorVersion() != 0) {
            return Retransmissions.NONE;
        }
        OpenStateTable opens = context.server().state().opens();
        return args -> opens.openRetransmission(args.owner.clientid, args.owner.owner, args.seqid);
    }

    private void begin(CompoundContext context, Txn txn) throws IOException {
        if (txn.transactional && readsOnlyAsPlain(context, txn.args)) {
            txn.transactional = false;
        }
        CompoundLocker.Admission admitted = locker.admit(txn.args, txn.transactional, context.clientAddress(), null,
                retransmissions(context), heldOpen(context));
        if (admitted.locks() == null) {
            return;
        }
        if (admitted.plan() != null) {
            planRetransmissions(context, admitted.plan());
        }
        txn.lockSet = admitted.locks();
        txn.transactional = admitted.transactional();
        if (admitted.wholeExports() || admitted.quiet()) {
            txn.conservative = true;
            txn.buffer = handles.plainBuffer();
            return;
        }
        txn.plan = admitted.plan();
        if (!txn.transactional) {
            txn.buffer = handles.plainBuffer();
            Area plainArea = areas.get(admitted.exportId().orElseThrow());
            txn.async = plainArea != null && context.fs() instanceof PseudoFs view
                    && view.isAsync(plainArea.export().fs().getRootInode());
            if (txn.async) {
                txn.buffer.deferringDirectorySyncs();
            }
            return;
        }
        // from here the transaction owns the locks: whatever fails rolls it back
        Area area = areas.get(admitted.exportId().orElseThrow());
        if (txn.plan.mutates() && context.fs() instanceof PseudoFs view
                && view.isReadOnly(area.export().fs().getRootInode())) {
            // the export is read-only for this compound's view: each change is refused (NFS4ERR_ROFS) before it
            // happens, so there is nothing to back up or record, and no backup area is touched
            txn.plan = txn.plan.withoutMutations();
        }
        TransactionSteps steps = new TransactionSteps(services, area.export(), area.undo(), txn.args, txn.plan,
                txn.lockSet);
        txn.steps = steps;
        txn.transaction = new Transaction(steps::label, steps);
        txn.transaction.locked(txn.lockSet);
        steps.prepare();
        txn.buffer = steps.buffer();
        txn.transaction.prepared();
    }

    /**
     * Whether a compound that carries the transaction flag runs as a plain compound because it only reads
     * ({@link CompoundLocker#onlyReads}: no operation changes an object, open or lock state), and its first file handle
     * is one of an export whose policy for the client runs transactions (on a {@code txn=never} export the locker still
     * refuses the flag with NFS4ERR_NOTSUPP). Such a transaction has nothing to record, back up, sync or undo; what it
     * needs is isolation, which a plain compound that only reads has too: it runs as a quiet read while no compound
     * holds or waits for a WRITE lock (writers wait for it, so it sees no compound half done), else under its plan's
     * read locks until its reply, as the transaction would. Its reply also waits, as any plain compound's, for the
     * compounds it saw that released their locks before they were durable. What it saves is the plan, the locks and
     * the transaction's bookkeeping (docs/benchmarks.md, "Issue 16: fewer durable syncs per transactional compound").
     */
    private boolean readsOnlyAsPlain(CompoundContext context, COMPOUND4args args) {
        if (!CompoundLocker.onlyReads(args)) {
            return false;
        }
        for (nfs_argop4 op : args.argarray) {
            if (op.argop == nfs_opnum4.OP_SEQUENCE) {
                continue;
            }
            if (op.argop != nfs_opnum4.OP_PUTFH || !(op.args instanceof PUTFH4args putfh) || putfh.object == null
                    || putfh.object.value == null || putfh.object.value.length != ObjectHandle.LENGTH) {
                return false; // PUTROOTFH and the like: the locker finds the export (and refuses what it must)
            }
            Optional<Area> area = handles.exportIdOf(Nfh.of(putfh.object.value)).map(areas::get);
            return area.isPresent()
                    && area.get().export().policy().forClient(context.clientAddress()) != TxnPolicy.NEVER;
        }
        return false;
    }

    // ---- transactions that span compounds --------------------------------------------------------------------

    /**
     * A TXN_COMPOUND's first operation after SEQUENCE: enters its transaction (NFS4ERR_BAD_STATEID when there is
     * none on this connection), checks the caps (NFS4ERR_NOSPC before anything changes) and the operations all
     * open transactions hold (NFS4ERR_DELAY, or NFS4ERR_NOSPC when this one alone is too large), plans and locks in
     * addition to what the transaction holds (NFS4ERR_DEADLOCK when an older transaction holds a key: wait-die),
     * then prepares this compound's undo like a transactional compound's, with the transaction's buffer.
     */
    private void beginSpanning(CompoundContext context, Txn txn) throws IOException {
        MultiTransaction multi = spanning.enter(txn.call.txnId(), txn.call.connection());
        txn.multi = multi;
        SpanningLimits limits = spanning.limits();
        long requestBytes = Math.max(0, context.requestBytes());
        if (multi.compoundCount() >= limits.maxCompounds()) {
            throw new NoSpcException("transaction " + multi.name() + " would exceed txn-max-compounds ("
                    + limits.maxCompounds() + ")");
        }
        if (multi.bytes() + requestBytes > limits.maxBytes()) {
            throw new NoSpcException("transaction " + multi.name() + " would exceed txn-max-bytes ("
                    + limits.maxBytes() + "): " + multi.bytes() + " carried, " + requestBytes + " more");
        }
        spanning.holdOps(multi, txn.args.argarray.length);
        CompoundLocker.Admission admitted;
        try (HandleTable.Binding planning = handles.bind(multi.buffer())) {
            admitted = locker.admit(txn.args, true, context.clientAddress(), multi.owner(), retransmissions(context),
                    heldOpen(context));
        }
        if (admitted.locks() == null || admitted.wholeExports() || admitted.plan() == null) {
            if (admitted.locks() != null) {
                multi.addLocks(admitted.locks());
            }
            throw new NotSuppException("a TXN_COMPOUND must work on an export that runs transactions");
        }
        txn.lockSet = admitted.locks();
        multi.addLocks(txn.lockSet);
        try {
            // a transaction that spans compounds builds only on durable changes: its commit comes much later
            txn.lockSet.awaitDependencies();
        } catch (IOException e) {
            throw new ServerFaultException("a change this transaction saw could not be made durable: "
                    + e.getMessage(), e);
        }
        txn.plan = admitted.plan();
        planRetransmissions(context, txn.plan);
        Area area = areas.get(admitted.exportId().orElseThrow());
        TransactionSteps steps = new TransactionSteps(services, area.export(), area.undo(), txn.args, txn.plan,
                txn.lockSet, multi.buffer());
        txn.steps = steps;
        multi.addCompound(steps);
        multi.charge(requestBytes);
        steps.prepare();
        txn.buffer = multi.buffer();
    }

    /**
     * A TXN_COMPOUND's end: NFS4_OK keeps everything for the next compound or the commit; any other status
     * aborts the whole transaction (every compound undone, the last first) and the compound keeps its status.
     */
    private void finishSpanning(Txn txn, COMPOUND4res res) throws IOException {
        unbind(txn);
        MultiTransaction multi = txn.multi;
        try {
            if (txn.steps != null) {
                txn.steps.compoundEnded();
                multi.charge(txn.steps.backupBytes());
            }
            if (res.status != NfsStatus.OK.code()) {
                spanning.abortEntered(multi, "compound \"" + txn.args.tag + "\" failed with "
                        + NfsStatus.nameOf(res.status));
                if (multi.state() == MultiTransaction.State.UNDO_FAILED) {
                    throw new ServerFaultException("undo failed; the transaction's records stay for recovery");
                }
            }
        } finally {
            multi.exit();
        }
    }

    private void unbind(Txn txn) {
        if (txn.binding != null) {
            txn.binding.close();
            txn.binding = null;
        }
        if (txn.steps != null) {
            txn.steps.unbindStateJournal();
        }
    }

    // ---- plain compounds -----------------------------------------------------------------------------------

    /**
     * Syncs the files a plain compound wrote with stable WRITEs and makes its handle changes durable at once (one
     * flush of the table's row journal, {@link TxnBuffer#commitJournaled}), whatever its status: its operations
     * are not undone, so what they changed must be found again after a crash. A failed commit answers
     * NFS4ERR_SERVERFAULT (the objects are there; their new handles are lost and get new ones on lookup).
     * On an {@code async} export the syncs of the directories it changed wait in the table's
     * {@link org.tcnfs.txn.handles.LateDurability} queue and its handle changes commit lazily: the reply does
     * not wait for either (docs/durability.md, "The async export option").
     */
    private void commitPlain(Txn txn) throws IOException {
        if (txn.async) {
            txn.buffer.deferDirectorySyncs();
            if (!txn.buffer.isEmpty() && keepRowsPending(txn)) {
                // its rows wait in memory, visible to all: no commit left to run beside its files' syncs, which run
                // on this thread (one file: no hand-off to the pool and back)
                txn.buffer.syncPending();
                txn.buffer.forgetRemovedRows();
                return;
            }
        }
        if (!txn.buffer.isEmpty() && (txn.async || txn.buffer.mayCommitAlongsideSyncs())) {
            // it created (or looked up) objects and renamed nothing, or it is async: its rows may become durable
            // with its names (async: its directory syncs wait in the queue, its files sync alongside the commit)
            txn.buffer.syncPendingAlongside(() -> commitPlainHandles(txn));
            txn.buffer.forgetRemovedRows();
            return;
        }
        IOException syncFailure = null;
        try {
            txn.buffer.syncPending(txn.async);
        } catch (IOException e) {
            LOG.error("plain compound: syncing the files it wrote failed: {}", e.toString());
            syncFailure = e;
        }
        if (!txn.buffer.isEmpty()) {
            commitPlainHandles(txn);
        }
        if (syncFailure == null) {
            txn.buffer.forgetRemovedRows();
        }
        if (syncFailure != null) {
            throw syncFailure;
        }
    }

    /**
     * Whether a plain compound releases its locks before its changes are durable (early lock release,
     * docs/durability.md): one on a {@code sync} export, under a plan's locks, that wrote something and whose
     * handle rows may become durable before its names (no RENAME).
     */
    private boolean releasesEarly(Txn txn) {
        return EARLY_LOCK_RELEASE && !txn.conservative && !txn.async && txn.lockSet.isOpen()
                && txn.lockSet.holdsWrites() && txn.buffer.mayCommitAlongsideSyncs();
    }

    /**
     * {@link #commitPlain} with early lock release: makes the compound's handle rows visible (not yet durable) and
     * releases its locks, then syncs the files and directories it changed on this thread while a pool thread makes
     * the rows durable ({@link TxnBuffer#commitVisiblyAlongsideSyncs}), then waits until the compounds it depends on
     * are durable, and only then completes its own {@link PendingDurability} and replies. Compounds that take its keys meanwhile
     * run at once and may share its fsyncs, but do not reply before it is durable
     * ({@link LockSet#awaitDependencies()}).
     */
    private void commitPlainReleasingEarly(Txn txn) throws IOException {
        PendingDurability[] pending = new PendingDurability[1];
        Throwable failure = null;
        try {
            try {
                txn.buffer.commitVisiblyAlongsideSyncs(() -> pending[0] = txn.lockSet.releaseEarly());
            } catch (IOException | RuntimeException e) {
                LOG.error("plain compound: syncing the files it wrote or committing its handle-table changes failed "
                        + "(objects it created get new handles when looked up again): {}", e.toString(), e);
                throw new ServerFaultException("making the compound durable failed: " + e.getMessage(), e);
            }
            txn.buffer.forgetRemovedRows();
            txn.lockSet.awaitDependencies();
        } catch (IOException | RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            if (pending[0] != null) {
                pending[0].complete(failure);
            } else {
                txn.lockSet.close();
            }
        }
    }

    /** {@link TxnBuffer#keepPending()} for a plain {@code async} compound, failing as {@link #commitPlainHandles}. */
    private static boolean keepRowsPending(Txn txn) throws IOException {
        try {
            return txn.buffer.keepPending();
        } catch (RuntimeException e) {
            throw handleChangeFailed(txn, "keeping pending", e);
        }
    }

    private void commitPlainHandles(Txn txn) throws IOException {
        try {
            if (txn.async) {
                txn.buffer.commitPending();
            } else {
                txn.buffer.commitJournaled();
            }
        } catch (RuntimeException e) {
            throw handleChangeFailed(txn, "committing", e);
        }
    }

    /**
     * A plain compound's handle-table change ({@code doing} its rows) failed: its buffer is discarded and the failure
     * logged; the compound answers NFS4ERR_SERVERFAULT (the objects are there; their new handles are lost and get new
     * ones on lookup).
     */
    private static ServerFaultException handleChangeFailed(Txn txn, String doing, RuntimeException e) {
        txn.buffer.discard();
        LOG.error("plain compound: {} its {} handle-table changes failed; the objects it created or renamed get new "
                + "handles when looked up again: {}", doing, txn.buffer.changedRows(), e.toString(), e);
        return new ServerFaultException("handle table change failed (" + doing + "): " + e.getMessage(), e);
    }

    /** An export with what compounds on it share. */
    private record Area(TxnExport export, UndoExecutor undo) {
    }

    /** A compound's place in the hook's protocol, kept in the compound context. */
    private static final class Txn {
        final COMPOUND4args args;
        boolean transactional;
        boolean begun;
        /** The operation before which the compound was planned and locked (once {@link #begun}). */
        int begunAt;
        /** A plain compound without a plan: under whole-export locks, or a quiet read. */
        boolean conservative;
        /** A plain compound on an export whose rule for the client says {@code async}. */
        boolean async;
        /** Whether the compound entered the {@link CompoundGate} (and must leave it). */
        boolean entered;
        /** The transaction of a transactional compound, once locked; null for a plain one. */
        Transaction transaction;
        /** What the transaction does at each step; null for a plain compound. */
        TransactionSteps steps;
        TxnPlan plan;
        LockSet lockSet;
        TxnBuffer buffer;
        HandleTable.Binding binding;
        /** The TXN_COMPOUND call, or null for a COMPOUND. */
        SpanningTransactions.Call call;
        /** The transaction that spans compounds this compound runs in, once entered; else null. */
        MultiTransaction multi;

        Txn(COMPOUND4args args, boolean transactional) {
            this.args = args;
            this.transactional = transactional;
        }
    }
}
