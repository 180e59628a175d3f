package org.tcnfs.txn;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.export.ExportOptions.TxnPolicy;
import org.tcnfs.nfs4.status.DelayException;
import org.tcnfs.nfs4.status.NotSuppException;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.proto.ObjectHandle;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.lock.LockKey;
import org.tcnfs.txn.lock.LockManager;
import org.tcnfs.txn.lock.LockMode;
import org.tcnfs.txn.lock.LockRequest;
import org.tcnfs.txn.lock.LockSet;
import org.tcnfs.txn.lock.LockOwner;
import org.tcnfs.txn.lock.LockTimeoutException;
import org.tcnfs.txn.lock.WaitDieException;
import org.tcnfs.nfs4.status.DeadlockException;
import org.tcnfs.txn.plan.CompoundPlanner;
import org.tcnfs.txn.plan.ExpectedFailure;
import org.tcnfs.txn.plan.Retransmissions;
import org.tcnfs.txn.plan.OperationTable;
import org.tcnfs.txn.plan.PathResolver;
import org.tcnfs.txn.plan.TxnPlan;
import org.tcnfs.txn.plan.Unplannable;

/**
 * Decides what a compound locks and takes those locks (DESIGN.md, "The transaction protocol", steps 2 and 3),
 * for plain and transactional compounds alike: every compound that can touch a file-system object runs
 * under locks, whatever operation comes first or last.
 * <ol>
 *   <li><b>Reach.</b> The first PUTFH, PUTROOTFH or PUTPUBFH anywhere in the compound names the export
 *       (nothing before it can touch an object: there is no current file handle). A compound without one
 *       reaches nothing and takes no locks; so does one whose first PUTFH carries a handle no export issued
 *       on a server whose single export is the root (that PUTFH fails). Above several exports, a compound
 *       with PUTROOTFH reaches what its LOOKUPs lead to: nothing while it stays in the read-only pseudo
 *       directories, else the one export they all lead to (planned with a {@link PseudoPathResolver}).
 *       Anything else (LOOKUPP or SAVEFH in or towards the pseudo file system, two exports, a handle of no
 *       export) is unknown: a plain compound then locks every export whole.</li>
 *   <li><b>Policy.</b> The export's {@code txn=} policy for the client: {@code never} refuses the
 *       transaction flag, {@code always} makes every plannable compound that changes something a
 *       transaction.</li>
 *   <li><b>Plan and lock.</b> {@link CompoundPlanner}, all keys at once, the plan's assumptions checked
 *       again under the locks (at once when the handle table did not change since planning began:
 *       {@link PathResolver#changeCount()}), at most {@value #MAX_PLANS} attempts, the last ones
 *       ({@value #EXCLUSIVE_PLANS}) under a WRITE lock of the whole export; if the assumptions fail even there, a plain compound locks every
 *       export whole and a transaction is refused with NFS4ERR_NOTSUPP (a disagreement of planner and handle
 *       table, logged at WARN, not a DELAY that would be answered every time). A plain compound the planner cannot plan locks every export whole; a transactional one is
 *       refused with NFS4ERR_NOTSUPP. Keys fenced after a failed undo answer NFS4ERR_DELAY, and so does a
 *       lock that is not free in time.</li>
 *   <li><b>Files with no name.</b> A plan that stops at a PUTFH because its handle does not resolve (also while
 *       the rows of its every name wait for removal after a plain REMOVE: {@link HandleTableResolver}) expects that
 *       PUTFH to fail; it does not when the handle is of a file that lost its last name while a client holds it
 *       open (PUTFH accepts it, RFC 8881 18.26.4), and the operations after it would run past the plan. Such a
 *       plain compound locks every export whole instead (it is rare, and gets its operations' own results); a
 *       transaction that asked for it is refused with NFS4ERR_NOTSUPP (its undo would have no name to restore
 *       the file under); under {@code txn=always} it runs plain, as an unplannable compound does. Never
 *       NFS4ERR_DELAY: nothing another compound holds is the cause.</li>
 * </ol>
 *
 * <p><b>Read-only compounds.</b> With {@link ReadOnlyCompounds#QUIET_WHEN_NO_WRITER} (what the server uses), a plain
 * compound whose every operation only reads (SEQUENCE and operations marked {@link OperationTable.Effect#READ_ONLY})
 * first tries a quiet read ({@link LockManager#enterQuietRead()}): while no compound holds or waits for a WRITE
 * lock (and no key is fenced) it runs with no plan and no key, and writers wait for it to end, so it sees what
 * its read locks would have shown it. When a writer is about it is planned and locked as above.
 *
 * <p>Thread-safe: it keeps no state per compound. The caller owns the returned {@link Admission#locks()}.
 */
final class CompoundLocker {
    private static final Logger LOG = LoggerFactory.getLogger(CompoundLocker.class);

    /** Plans before the last attempt, which plans under an exclusive lock of the export. */
    static final int MAX_PLANS = 3;

    /**
     * Attempts under an exclusive lock of the export before the locker stops re-planning: there only the handle
     * table's late row removals ({@code LateDurability}) can change what the planner saw.
     */
    static final int EXCLUSIVE_PLANS = 2;

    /** How plain compounds that only read are admitted. */
    enum ReadOnlyCompounds {
        /** Planned and locked like every other compound. */
        LOCKED,
        /** Run as a quiet read, without plan or keys, while no writer is about; else planned and locked. */
        QUIET_WHEN_NO_WRITER
    }

    /** An export as the locker sees it: its resolver and its {@code txn=} policy. */
    record Export(String exportId, PathResolver resolver, TxnExport.Policy policy,
            Optional<List<String>> pseudoComponents) {
        Export {
            Objects.requireNonNull(exportId, "exportId");
            Objects.requireNonNull(resolver, "resolver");
            Objects.requireNonNull(policy, "policy");
            pseudoComponents = pseudoComponents.map(List::copyOf);
        }

        /** An export whose place in the pseudo file system is not known. */
        Export(String exportId, PathResolver resolver, TxnExport.Policy policy) {
            this(exportId, resolver, policy, Optional.empty());
        }
    }

    /**
     * What a compound was admitted with.
     *
     * @param exportId the export it works on; empty for a compound that reaches nothing or is locked whole
     * @param plan its plan; null unless planned and locked by it
     * @param locks the locks it holds (the caller releases them); null when it reaches nothing
     * @param transactional whether it runs as a transaction (the flag, or {@code txn=always})
     * @param wholeExports whether it holds WRITE locks of every export instead of a plan's keys
     */
    record Admission(Optional<String> exportId, TxnPlan plan, LockSet locks, boolean transactional,
            boolean wholeExports) {
        static final Admission UNLOCKED = new Admission(Optional.empty(), null, null, false, false);

        /** Whether it runs as a quiet read: no plan, no key, no writer about ({@link LockSet#isQuiet()}). */
        boolean quiet() {
            return locks != null && locks.isQuiet();
        }
    }

    private final Map<String, Export> exports = new ConcurrentHashMap<>();
    private final Export atRoot;
    private final HandleTable handles;
    private final LockManager locks;
    private final Duration lockTimeout;
    private final Set<LockKey> fenced;
    private final CompoundPlanner planner = new CompoundPlanner();
    private final ReadOnlyCompounds readOnly;
    private final LongAdder plansUnchecked = new LongAdder();
    private final LongAdder plansRechecked = new LongAdder();

    /**
     * @param exports the exports compounds work on
     * @param rootExportId the export PUTROOTFH reaches (the single export at "/"), or null above several
     * @param handles the handle table, to find a handle's export
     * @param locks the lock manager shared by all compounds
     * @param lockTimeout how long a compound waits for its locks
     * @param fenced keys fenced after a failed undo (read, never changed, here)
     */
    CompoundLocker(List<Export> exports, String rootExportId, HandleTable handles, LockManager locks,
            Duration lockTimeout, Set<LockKey> fenced) {
        this(exports, rootExportId, handles, locks, lockTimeout, fenced, ReadOnlyCompounds.LOCKED);
    }

    /**
     * @param exports the exports compounds work on
     * @param rootExportId the export PUTROOTFH reaches (the single export at "/"), or null above several
     * @param handles the handle table, to find a handle's export
     * @param locks the lock manager shared by all compounds
     * @param lockTimeout how long a compound waits for its locks
     * @param fenced keys fenced after a failed undo (read, never changed, here)
     * @param readOnly how plain compounds that only read are admitted
     */
    CompoundLocker(List<Export> exports, String rootExportId, HandleTable handles, LockManager locks,
            Duration lockTimeout, Set<LockKey> fenced, ReadOnlyCompounds readOnly) {
        this.readOnly = Objects.requireNonNull(readOnly, "readOnly");
        for (Export e : exports) {
            this.exports.put(e.exportId(), e);
        }
        this.atRoot = rootExportId == null ? null : Objects.requireNonNull(this.exports.get(rootExportId),
                "root export " + rootExportId);
        this.handles = Objects.requireNonNull(handles, "handles");
        this.locks = Objects.requireNonNull(locks, "locks");
        this.lockTimeout = Objects.requireNonNull(lockTimeout, "lockTimeout");
        this.fenced = Objects.requireNonNull(fenced, "fenced");
    }

    /**
     * Adds {@code export}, or replaces the export with its id (a reloaded exports file): compounds admitted
     * from now on see it, those admitted before keep what they were admitted with.
     */
    void putExport(Export export) {
        Objects.requireNonNull(export, "export");
        if (atRoot != null && atRoot.exportId().equals(export.exportId())) {
            throw new IllegalArgumentException("the export at the root of the name space cannot be replaced");
        }
        exports.put(export.exportId(), export);
    }

    /**
     * Plans {@code args} and takes its locks.
     *
     * @param args the compound
     * @param transactionFlag whether the client asked for a transaction
     * @param client the client's address, for the export's policy
     * @throws NotSuppException a transaction that cannot run (outside an export, {@code txn=never},
     *     unplannable); nothing is locked
     * @throws DelayException locks not free in time, fenced keys, a name space that kept changing
     * @throws IOException a handle-table lookup failed
     */
    Admission admit(COMPOUND4args args, boolean transactionFlag, InetAddress client) throws IOException {
        return admit(args, transactionFlag, client, null, Retransmissions.NONE, NO_FILE_HELD_OPEN);
    }

    /** For callers that know of no open file: every handle that does not resolve is taken for a stale one. */
    static final Predicate<Inode> NO_FILE_HELD_OPEN = handle -> false;

    /**
     * Plans {@code args} and takes its locks for {@code owner}, a transaction that spans compounds, in addition
     * to what it holds (null: a compound on its own), as {@link #admit(COMPOUND4args, boolean, InetAddress)} does.
     *
     * @param retransmissions which NFSv4.0 OPENs only answer their owner's last reply
     * @param heldOpen whether a client holds the file of a handle open (the server's open state), for a PUTFH whose
     *     handle does not resolve (see the class comment, "Files with no name")
     * @throws DeadlockException when a lock is held by an older transaction that spans compounds (wait-die);
     *     nothing of this compound is locked
     */
    Admission admit(COMPOUND4args args, boolean transactionFlag, InetAddress client, LockOwner owner,
            Retransmissions retransmissions, Predicate<Inode> heldOpen) throws IOException {
        Objects.requireNonNull(heldOpen, "heldOpen");
        boolean transactional = transactionFlag;
        if (!transactional && owner == null && readOnly == ReadOnlyCompounds.QUIET_WHEN_NO_WRITER
                && fenced.isEmpty() && onlyReads(args)) {
            LockSet quiet = locks.enterQuietRead();
            if (quiet != null) {
                return new Admission(Optional.empty(), null, quiet, false, false);
            }
        }
        Reach reach = reachOf(args);
        if (reach.export() == null) {
            if (transactional) {
                throw new NotSuppException("a transactional compound sets its first file handle with PUTFH of a "
                        + "handle of an export that runs transactions" + (atRoot == null ? "" : ", or PUTROOTFH"));
            }
            if (reach.unknown()) {
                return wholeExports("its first file handle is not one of an export");
            }
            return Admission.UNLOCKED;
        }
        Export export = reach.export();
        if (transactional && atRoot == null && startsAtPseudoRoot(args)) {
            throw new NotSuppException("a transactional compound sets its first file handle with PUTFH of a handle of "
                    + "an export that runs transactions, not PUTROOTFH above several exports");
        }
        TxnPolicy policy = export.policy().forClient(client);
        if (policy == TxnPolicy.NEVER && transactional) {
            throw new NotSuppException("export " + export.exportId() + " does not run transactions (txn=never)");
        }
        Unplannable unplannable = null;
        ExpectedFailure unnamed = null;
        String unsettled = null;
        for (int attempt = 1; ; attempt++) {
            // The last attempt locks the whole export first and plans under that lock, where no name can
            // change: a compound is never refused because others kept renaming what it uses.
            boolean exclusive = attempt >= MAX_PLANS;
            LockSet set = null;
            if (exclusive) {
                LOG.debug("planning under an exclusive lock of export {} after {} attempts", export.exportId(),
                        attempt - 1);
                set = acquire(List.of(new LockRequest(LockKey.root(export.exportId()), LockMode.WRITE)), owner);
            }
            boolean hold = false;
            try {
                long changeCount = export.resolver().changeCount();
                TxnPlan plan = planner.plan(args, export.resolver(), retransmissions);
                if (policy == TxnPolicy.ALWAYS && plan.unplannable().isEmpty() && plan.mutates()) {
                    transactional = true;
                }
                if (plan.unplannable().isPresent() && !transactional) {
                    unplannable = plan.unplannable().get();
                    break;
                }
                if (plan.unplannable().isPresent()) {
                    LOG.info("refusing transactional compound: {}", plan.unplannable().get());
                    throw new NotSuppException("not plannable as a transaction: " + plan.unplannable().get());
                }
                if (stopsAtAFileHeldOpen(args, plan, heldOpen)) {
                    unnamed = plan.expectedFailure().orElseThrow();
                    if (transactionFlag || owner != null) {
                        LOG.debug("refusing transactional compound: operation {} PUTFH names a file with no name that "
                                + "a client holds open", unnamed.opIndex());
                        throw new NotSuppException("operation " + unnamed.opIndex() + " PUTFH names a file that lost "
                                + "its last name while a client holds it open: a transaction cannot use it");
                    }
                    break;
                }
                if (!fenced.isEmpty() && plan.lockRequests().stream().anyMatch(r -> fenced.contains(r.key()))) {
                    throw new DelayException("objects of a transaction whose undo failed are fenced until recovery");
                }
                if (set == null) {
                    set = acquire(plan.lockRequests(), owner);
                }
                if (assumptionsHold(plan, export.resolver(), changeCount)) {
                    hold = true;
                    return new Admission(Optional.of(export.exportId()), plan, set, transactional, false);
                }
                if (exclusive && attempt >= MAX_PLANS + EXCLUSIVE_PLANS - 1) {
                    // Nothing another compound holds can be the cause: NFS4ERR_DELAY would be answered every time.
                    unsettled = "the plan's view of the name space does not hold even under an exclusive lock of the "
                            + "export (" + attempt + " attempts)";
                    LOG.warn("{}; the planner and the handle table disagree", unsettled);
                    if (transactionFlag || owner != null) {
                        throw new NotSuppException("not plannable as a transaction: " + unsettled);
                    }
                    break;
                }
            } finally {
                if (!hold && set != null) {
                    set.close();
                }
            }
        }
        if (unsettled != null) {
            return wholeExports(unsettled);
        }
        if (unnamed != null) {
            return wholeExports("operation " + unnamed.opIndex() + " PUTFH names a file that lost its last name while "
                    + "a client holds it open");
        }
        return wholeExports("not plannable: " + unplannable);
    }

    /**
     * Whether {@code plan}'s assumptions hold, with its locks held: at once when nothing its resolver answers from
     * changed since {@code changeCount}, read before planning ({@link PathResolver#changeCount()}), else by asking the
     * resolver again ({@link TxnPlan#assumptionsHold}).
     */
    private boolean assumptionsHold(TxnPlan plan, PathResolver resolver, long changeCount) throws IOException {
        if (resolver.unchangedSince(changeCount)) {
            plansUnchecked.increment();
            return true;
        }
        plansRechecked.increment();
        return plan.assumptionsHold(resolver);
    }

    /** Plans locked whose assumptions were not checked again: nothing had changed since planning began. */
    long plansUnchecked() {
        return plansUnchecked.sum();
    }

    /** Plans locked whose assumptions were checked again (something changed, or the resolver cannot tell). */
    long plansRechecked() {
        return plansRechecked.sum();
    }

    /**
     * Whether {@code plan} stops at a PUTFH (its handle does not resolve) whose handle is of a file a client holds
     * open: that PUTFH succeeds, against the plan (see the class comment, "Files with no name").
     */
    private static boolean stopsAtAFileHeldOpen(COMPOUND4args args, TxnPlan plan, Predicate<Inode> heldOpen) {
        if (plan.expectedFailure().isEmpty() || args.argarray == null) {
            return false;
        }
        int at = plan.expectedFailure().get().opIndex();
        if (at >= args.argarray.length || args.argarray[at] == null || args.argarray[at].argop != nfs_opnum4.OP_PUTFH
                || !(args.argarray[at].args instanceof PUTFH4args putfh) || putfh.object == null
                || putfh.object.value == null || putfh.object.value.length == 0) {
            return false;
        }
        return heldOpen.test(Inode.of(putfh.object.value));
    }

    /**
     * WRITE locks of every export's root, which exclude every other compound there: for a plain compound the
     * planner cannot follow. Nothing runs without locks.
     */
    private Admission wholeExports(String why) throws IOException {
        if (!fenced.isEmpty()) {
            throw new DelayException("objects of a transaction whose undo failed are fenced until recovery");
        }
        LOG.debug("plain compound locks every export whole: {}", why);
        List<LockRequest> all = new ArrayList<>(exports.size());
        for (String exportId : exports.keySet()) {
            all.add(new LockRequest(LockKey.root(exportId), LockMode.WRITE));
        }
        return new Admission(Optional.empty(), null, acquire(all, null), false, true);
    }

    private LockSet acquire(List<LockRequest> requests, LockOwner owner) throws IOException {
        try {
            return owner == null ? locks.acquire(requests, lockTimeout) : locks.acquireFor(owner, requests, lockTimeout);
        } catch (LockTimeoutException e) {
            throw new DelayException("locks busy: " + e.getMessage(), e);
        } catch (WaitDieException e) {
            if (owner == null) {
                throw new DelayException("held by a transaction that spans compounds: " + e.getMessage(), e);
            }
            throw new DeadlockException("wait-die: " + e.getMessage(), e);
        }
    }

    /** Whether every operation of the compound is SEQUENCE or one that only reads ({@link OperationTable}). */
    static boolean onlyReads(COMPOUND4args args) {
        for (nfs_argop4 op : args.argarray) {
            if (op.argop == nfs_opnum4.OP_SEQUENCE) {
                continue;
            }
            Optional<OperationTable.Descriptor> d = OperationTable.find(op.argop);
            if (d.isEmpty() || d.get().effect() != OperationTable.Effect.READ_ONLY) {
                return false;
            }
        }
        return true;
    }

    /** Whether the compound uses PUTROOTFH or PUTPUBFH anywhere. */
    private static boolean startsAtPseudoRoot(COMPOUND4args args) {
        return Arrays.stream(args.argarray).anyMatch(op -> op.argop == nfs_opnum4.OP_PUTROOTFH
                || op.argop == nfs_opnum4.OP_PUTPUBFH);
    }

    /** Where a compound works (see the class comment, step 1). */
    private Reach reachOf(COMPOUND4args args) {
        if (atRoot == null && startsAtPseudoRoot(args)) {
            return belowPseudoRoot(args);
        }
        for (nfs_argop4 op : args.argarray) {
            switch (op.argop) {
                case nfs_opnum4.OP_PUTROOTFH:
                case nfs_opnum4.OP_PUTPUBFH:
                    return atRoot != null ? Reach.of(atRoot) : Reach.UNKNOWN;
                case nfs_opnum4.OP_PUTFH:
                    if (op.args instanceof PUTFH4args putfh && putfh.object != null && putfh.object.value != null
                            && putfh.object.value.length == ObjectHandle.LENGTH) {
                        Optional<String> exportId = handles.exportIdOf(Nfh.of(putfh.object.value));
                        if (exportId.isPresent()) {
                            Export export = exports.get(exportId.get());
                            return export == null ? Reach.UNKNOWN : Reach.of(export);
                        }
                    }
                    return atRoot != null ? Reach.NOTHING : Reach.UNKNOWN;
                default:
                    continue;
            }
        }
        return Reach.NOTHING;
    }

    /**
     * Where a compound with PUTROOTFH goes above several exports: the one export its LOOKUPs from the pseudo
     * root and its PUTFHs lead to, nothing if it stays in the pseudo directories (read-only, synthetic: no
     * locks), unknown for anything the walk cannot follow.
     */
    private Reach belowPseudoRoot(COMPOUND4args args) {
        if (exports.values().stream().anyMatch(e -> !(e.resolver() instanceof PseudoPathResolver))) {
            return Reach.UNKNOWN; // an export whose place in the pseudo file system the walk does not know
        }
        if (exports.values().stream().anyMatch(e -> towardsAnExport(e.pseudoComponents().orElseThrow()))) {
            return Reach.UNKNOWN; // exports nested in exports: LOOKUPs inside one may enter another
        }
        Export reached = null;
        List<String> at = null; // the pseudo directory the current file handle is in, null outside
        for (nfs_argop4 op : args.argarray) {
            switch (op.argop) {
                case nfs_opnum4.OP_PUTROOTFH, nfs_opnum4.OP_PUTPUBFH -> at = new ArrayList<>();
                case nfs_opnum4.OP_PUTFH -> {
                    Export e = exportOfHandle(op);
                    if (e == null || (reached != null && reached != e)) {
                        return Reach.UNKNOWN;
                    }
                    reached = e;
                    at = null;
                }
                case nfs_opnum4.OP_LOOKUP -> {
                    if (at == null) {
                        continue;
                    }
                    if (!(op.args instanceof LOOKUP4args lookup) || lookup.objname == null) {
                        return Reach.UNKNOWN;
                    }
                    at.add(lookup.objname);
                    Export e = exportAt(at);
                    if (e != null) {
                        if (reached != null && reached != e) {
                            return Reach.UNKNOWN;
                        }
                        reached = e;
                        at = null;
                    } else if (!towardsAnExport(at)) {
                        // NFS4ERR_NOENT (or a name the walk does not know): the compound ends here
                        return reached == null ? Reach.NOTHING : Reach.of(reached);
                    }
                }
                case nfs_opnum4.OP_LOOKUPP -> {
                    return Reach.UNKNOWN;
                }
                case nfs_opnum4.OP_SEQUENCE, nfs_opnum4.OP_GETATTR, nfs_opnum4.OP_GETFH, nfs_opnum4.OP_ACCESS,
                        nfs_opnum4.OP_READDIR, nfs_opnum4.OP_VERIFY, nfs_opnum4.OP_NVERIFY -> {
                    // read the current object, wherever it is; the pseudo directories need no locks
                }
                default -> {
                    if (at != null) {
                        return Reach.UNKNOWN;
                    }
                }
            }
        }
        return reached == null ? Reach.NOTHING : Reach.of(reached);
    }

    private Export exportOfHandle(nfs_argop4 op) {
        if (op.args instanceof PUTFH4args putfh && putfh.object != null && putfh.object.value != null
                && putfh.object.value.length == ObjectHandle.LENGTH) {
            try {
                return handles.exportIdOf(Nfh.of(putfh.object.value)).map(exports::get).orElse(null);
            } catch (RuntimeException e) {
                return null;
            }
        }
        return null;
    }

    /** The export at exactly {@code path} of the pseudo file system, if any has a pseudo path resolver. */
    private Export exportAt(List<String> path) {
        for (Export e : exports.values()) {
            if (e.pseudoComponents().isPresent() && e.pseudoComponents().get().equals(path)) {
                return e;
            }
        }
        return null;
    }

    /** Whether {@code path} is a pseudo directory on the way to an export. */
    private boolean towardsAnExport(List<String> path) {
        return exports.values().stream().map(Export::pseudoComponents).flatMap(Optional::stream)
                .anyMatch(c -> c.size() > path.size() && c.subList(0, path.size()).equals(path));
    }

    /** What a compound can reach: one export, nothing, or an unknown part of the name space. */
    private record Reach(Export export, boolean unknown) {
        static final Reach NOTHING = new Reach(null, false);
        static final Reach UNKNOWN = new Reach(null, true);

        static Reach of(Export export) {
            return new Reach(export, false);
        }
    }
}
