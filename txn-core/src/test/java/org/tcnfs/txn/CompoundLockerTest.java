package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.export.ExportOptions.TxnPolicy;
import org.tcnfs.nfs4.status.DelayException;
import org.tcnfs.nfs4.status.NotSuppException;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.READ4args;
import org.tcnfs.nfs4.xdr.SEQUENCE4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_fh4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.stateid4;
import org.tcnfs.txn.CompoundLocker.Admission;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.txn.handles.HandleBatch;
import org.tcnfs.txn.handles.HandleSnapshot;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.lock.LockKey;
import org.tcnfs.txn.lock.LockManager;
import org.tcnfs.txn.lock.LockMode;
import org.tcnfs.txn.lock.LockRequest;
import org.tcnfs.txn.lock.LockSet;
import org.tcnfs.txn.plan.PathResolver;
import org.tcnfs.txn.plan.ResolvedPath;
import org.tcnfs.txn.plan.Retransmissions;

/**
 * What a compound locks (issue 13, item 1), without the wire: a real handle table and lock manager, compounds
 * of every shape.
 */
class CompoundLockerTest {
    private static final InetAddress CLIENT = InetAddress.getLoopbackAddress();

    @TempDir
    Path state;

    private HandleTable table;
    private final LockManager locks = new LockManager();
    private final Set<LockKey> fenced = ConcurrentHashMap.newKeySet();
    private final List<LockSet> held = new ArrayList<>();
    private Nfh file;
    private Nfh other;
    private TxnPolicy policy = TxnPolicy.REQUEST;

    @BeforeEach
    void twoExports() {
        table = HandleTable.open(state);
        try (HandleBatch batch = table.write()) {
            Nfh root = batch.ensureRoot("/", 1, 100, 0);
            Nfh dir = batch.register(root, "d", FileType.DIRECTORY, 1, 101, 0);
            file = batch.register(dir, "f", FileType.REGULAR, 1, 102, 0);
            Nfh otherRoot = batch.ensureRoot("/other", 2, 200, 0);
            other = batch.register(otherRoot, "g", FileType.REGULAR, 2, 201, 0);
            batch.commit();
        }
    }

    @AfterEach
    void close() {
        held.forEach(LockSet::close);
        table.close();
    }

    /** A locker over both exports; {@code rootExport} is the export at "/" or null (pseudo root above both). */
    private CompoundLocker locker(String rootExport, Duration timeout) {
        List<CompoundLocker.Export> exports = List.of(
                new CompoundLocker.Export("/", new HandleTableResolver(table, "/"), client -> policy),
                new CompoundLocker.Export("/other", new HandleTableResolver(table, "/other"), client -> policy));
        return new CompoundLocker(exports, rootExport, table, locks, timeout, fenced);
    }

    private CompoundLocker singleRoot() {
        return locker("/", Duration.ofSeconds(5));
    }

    private Admission admit(CompoundLocker locker, COMPOUND4args args, boolean flag) throws IOException {
        Admission a = locker.admit(args, flag, CLIENT);
        if (a.locks() != null) {
            held.add(a.locks());
        }
        return a;
    }

    private static COMPOUND4args compound(int minorVersion, nfs_argop4... ops) {
        COMPOUND4args args = new COMPOUND4args();
        args.minorversion = minorVersion;
        args.tag = "test";
        args.argarray = ops;
        return args;
    }

    private static nfs_argop4 op(int opcode) {
        return new nfs_argop4(opcode, null);
    }

    private static nfs_argop4 sequence() {
        return new nfs_argop4(nfs_opnum4.OP_SEQUENCE, new SEQUENCE4args());
    }

    private static nfs_argop4 putfh(Nfh handle) {
        return new nfs_argop4(nfs_opnum4.OP_PUTFH, new PUTFH4args(new nfs_fh4(handle.toBytes())));
    }

    private static nfs_argop4 read() {
        return new nfs_argop4(nfs_opnum4.OP_READ, new READ4args(new stateid4(), 0, 16));
    }

    private static nfs_argop4 write() {
        return new nfs_argop4(nfs_opnum4.OP_WRITE,
                new WRITE4args(new stateid4(), 0, stable_how4.FILE_SYNC4, ByteBuffer.allocate(16)));
    }

    private static LockKey fileKey() {
        return LockKey.ofPath("/", "d", "f");
    }

    @Test
    void compoundStartingWithTestStateidLocksWhatItReads() throws IOException {
        Admission a = admit(singleRoot(),
                compound(1, sequence(), op(nfs_opnum4.OP_TEST_STATEID), putfh(file), read()), false);

        assertThat(a.locks()).isNotNull();
        assertThat(a.locks().holds(fileKey(), LockMode.READ)).isTrue();
        assertThat(a.plan()).isNotNull();
        assertThat(a.transactional()).isFalse();
    }

    @Test
    void nfs40CompoundStartingWithRenewLocksWhatItWrites() throws IOException {
        Admission a = admit(singleRoot(), compound(0, op(nfs_opnum4.OP_RENEW), putfh(file), write()), false);

        assertThat(a.locks().holds(fileKey(), LockMode.WRITE)).isTrue();
    }

    @Test
    void transactionStartingWithTestStateidIsPlannedOnItsExport() throws IOException {
        Admission a = admit(singleRoot(),
                compound(1, sequence(), op(nfs_opnum4.OP_TEST_STATEID), putfh(file), write()), true);

        assertThat(a.transactional()).isTrue();
        assertThat(a.exportId()).contains("/");
        assertThat(a.locks().holds(fileKey(), LockMode.WRITE)).isTrue();
    }

    @Test
    void compoundWithoutAFileHandleLocksNothing() throws IOException {
        Admission a = admit(singleRoot(), compound(1, sequence(), op(nfs_opnum4.OP_TEST_STATEID)), false);

        assertThat(a.locks()).isNull();
        assertThat(locks.keysInUse()).isZero();
    }

    @Test
    void unknownHandleUnderASingleRootExportLocksNothingAsItsPutfhFails() throws IOException {
        Admission a = admit(singleRoot(), compound(1, sequence(), putfh(Nfh.random()), read()), false);

        assertThat(a.locks()).isNull();
    }

    @Test
    void pseudoRootAboveSeveralExportsLocksEveryExportWhole() throws IOException {
        Admission a = admit(locker(null, Duration.ofSeconds(5)), compound(1, sequence(), op(nfs_opnum4.OP_PUTROOTFH),
                new nfs_argop4(nfs_opnum4.OP_LOOKUP, new LOOKUP4args("other")), read()), false);

        assertThat(a.wholeExports()).isTrue();
        assertThat(a.locks().holds(LockKey.root("/"), LockMode.WRITE)).isTrue();
        assertThat(a.locks().holds(LockKey.root("/other"), LockMode.WRITE)).isTrue();
    }

    /** A locker above two exports at "/a" and "/b/other" of the pseudo file system. */
    private CompoundLocker belowPseudoRoot() {
        List<CompoundLocker.Export> exports = List.of(
                new CompoundLocker.Export("/", new PseudoPathResolver(new HandleTableResolver(table, "/"), "/",
                        List.of("a")), client -> policy, java.util.Optional.of(List.of("a"))),
                new CompoundLocker.Export("/other", new PseudoPathResolver(new HandleTableResolver(table, "/other"),
                        "/other", List.of("b", "other")), client -> policy,
                        java.util.Optional.of(List.of("b", "other"))));
        return new CompoundLocker(exports, null, table, locks, Duration.ofSeconds(5), fenced);
    }

    private static nfs_argop4 lookup(String name) {
        return new nfs_argop4(nfs_opnum4.OP_LOOKUP, new LOOKUP4args(name));
    }

    @Test
    void putrootfhAndLookupsIntoOneExportLockOnlyWhatTheyReachThere() throws IOException {
        Admission a = admit(belowPseudoRoot(), compound(1, sequence(), op(nfs_opnum4.OP_PUTROOTFH), lookup("b"),
                lookup("other"), lookup("g"), op(nfs_opnum4.OP_GETATTR)), false);

        assertThat(a.wholeExports()).isFalse();
        assertThat(a.exportId()).contains("/other");
        assertThat(a.locks().holds(LockKey.root("/"), LockMode.READ)).isFalse();
        assertThat(a.locks().holds(LockKey.root("/"), LockMode.WRITE)).isFalse();
        assertThat(a.locks().holds(LockKey.root("/other"), LockMode.WRITE)).isFalse();
        assertThat(a.locks().holds(LockKey.ofPath("/other", "g"), LockMode.READ)).isTrue();
    }

    @Test
    void putrootfhThatStaysInThePseudoFileSystemLocksNothing() throws IOException {
        Admission a = admit(belowPseudoRoot(), compound(1, sequence(), op(nfs_opnum4.OP_PUTROOTFH), lookup("b"),
                op(nfs_opnum4.OP_GETATTR), op(nfs_opnum4.OP_READDIR)), false);

        assertThat(a.locks()).isNull();
    }

    @Test
    void putrootfhLookupsIntoTwoExportsOrClimbingBackLockEveryExportWhole() throws IOException {
        Admission two = admit(belowPseudoRoot(), compound(1, sequence(), op(nfs_opnum4.OP_PUTROOTFH), lookup("a"),
                op(nfs_opnum4.OP_PUTROOTFH), lookup("b"), lookup("other"), read()), false);
        assertThat(two.wholeExports()).isTrue();
        two.locks().close();
        held.remove(two.locks());

        Admission back = admit(belowPseudoRoot(), compound(1, sequence(), op(nfs_opnum4.OP_PUTROOTFH), lookup("a"),
                op(nfs_opnum4.OP_LOOKUPP), lookup("b"), read()), false);
        assertThat(back.wholeExports()).isTrue();
    }

    @Test
    void unplannablePlainCompoundLocksEveryExportWhole() throws IOException {
        int allocate = 59;
        Admission a = admit(singleRoot(), compound(1, sequence(), putfh(file), write(), op(allocate)), false);

        assertThat(a.wholeExports()).isTrue();
        assertThat(a.locks().holds(LockKey.root("/"), LockMode.WRITE)).isTrue();
        assertThat(a.locks().holds(LockKey.root("/other"), LockMode.WRITE)).isTrue();
    }

    @Test
    void unplannableTransactionIsRefusedWithNothingLocked() {
        int allocate = 59;
        assertThatThrownBy(() -> admit(singleRoot(), compound(1, sequence(), putfh(file), write(), op(allocate)), true))
                .isInstanceOf(NotSuppException.class);
        assertThat(locks.keysInUse()).isZero();
    }

    /**
     * A handle the table no longer knows, of a file a client holds open (it lost its last name while open): PUTFH
     * accepts it, so a plan that stops there cannot cover what follows (OperationFuzzIT seed 3 answered
     * NFS4ERR_DELAY at the next operation, for ever).
     */
    @Test
    void putfhOfAFileWithNoNameThatAClientHoldsOpenLocksEveryExportWholeOrRefusesATransaction() throws IOException {
        Nfh unnamed = Nfh.random();
        java.util.function.Predicate<org.tcnfs.nfs4.vfs.Inode> heldOpen =
                h -> h.equals(org.tcnfs.nfs4.vfs.Inode.of(unnamed.toBytes()));
        COMPOUND4args args = compound(1, sequence(), putfh(file), putfh(unnamed), op(nfs_opnum4.OP_SAVEFH), write());

        Admission plain = singleRoot().admit(args, false, CLIENT, null, Retransmissions.NONE, heldOpen);
        held.add(plain.locks());
        assertThat(plain.wholeExports()).isTrue();
        assertThat(plain.transactional()).isFalse();
        assertThat(plain.locks().holds(LockKey.root("/"), LockMode.WRITE)).isTrue();
        held.forEach(LockSet::close);
        held.clear();

        assertThatThrownBy(() -> singleRoot().admit(args, true, CLIENT, null, Retransmissions.NONE, heldOpen))
                .isInstanceOf(NotSuppException.class);
        assertThat(locks.keysInUse()).isZero();

        policy = TxnPolicy.ALWAYS;
        Admission always = singleRoot().admit(compound(1, sequence(), putfh(file), write(), putfh(unnamed), write()),
                false, CLIENT, null, Retransmissions.NONE, heldOpen);
        held.add(always.locks());
        assertThat(always.wholeExports()).as("txn=always runs it plain").isTrue();
        assertThat(always.transactional()).isFalse();
        held.forEach(LockSet::close);
        held.clear();

        Admission notOpen = singleRoot().admit(args, true, CLIENT, null, Retransmissions.NONE, h -> false);
        held.add(notOpen.locks());
        assertThat(notOpen.wholeExports()).as("a stale handle: its PUTFH fails, the plan stops there").isFalse();
        assertThat(notOpen.plan().expectedFailure()).isPresent();
    }

    /**
     * A resolver that never answers twice the same (a disagreement of planner and handle table): before, every
     * attempt failed its assumptions and the compound got NFS4ERR_DELAY, every time it was sent.
     */
    @Test
    void assumptionsThatFailEvenUnderAnExclusiveLockAreNeverADelay() throws IOException {
        java.util.concurrent.atomic.AtomicInteger answers = new java.util.concurrent.atomic.AtomicInteger();
        org.tcnfs.txn.plan.PathResolver unsettled = new org.tcnfs.txn.plan.PathResolver() {
            @Override
            public org.tcnfs.txn.plan.ResolvedPath resolve(org.tcnfs.nfs4.vfs.Inode handle) {
                return org.tcnfs.txn.plan.ObjectPath.of("/", List.of("d", "f" + answers.incrementAndGet()));
            }

            @Override
            public org.tcnfs.txn.plan.ResolvedPath root() {
                return org.tcnfs.txn.plan.ObjectPath.root("/");
            }
        };
        CompoundLocker locker = new CompoundLocker(
                List.of(new CompoundLocker.Export("/", unsettled, client -> policy)), "/", table, locks,
                Duration.ofSeconds(5), fenced);
        COMPOUND4args args = compound(1, sequence(), putfh(file), write());

        Admission plain = admit(locker, args, false);
        assertThat(plain.wholeExports()).isTrue();
        assertThat(plain.locks().holds(LockKey.root("/"), LockMode.WRITE)).isTrue();
        held.forEach(LockSet::close);
        held.clear();
        assertThatThrownBy(() -> admit(locker, args, true)).isInstanceOf(NotSuppException.class);
        assertThat(locks.keysInUse()).isZero();
        int attempts = CompoundLocker.MAX_PLANS + CompoundLocker.EXCLUSIVE_PLANS - 1;
        assertThat(answers.get()).as("two admissions of %d attempts, each planned and checked", attempts)
                .isEqualTo(2 * 2 * attempts);
    }

    /** The resolver of export "/" over the table, counting its {@code resolve} calls and running {@code after} each. */
    private static PathResolver counting(HandleTable table, java.util.concurrent.atomic.AtomicInteger resolves,
            Runnable after) {
        PathResolver inside = new HandleTableResolver(table, "/");
        return new PathResolver() {
            @Override
            public ResolvedPath resolve(Inode handle) throws IOException {
                ResolvedPath answer = inside.resolve(handle);
                resolves.incrementAndGet();
                after.run();
                return answer;
            }

            @Override
            public ResolvedPath root() throws IOException {
                return inside.root();
            }

            @Override
            public long changeCount() {
                return inside.changeCount();
            }

            @Override
            public boolean unchangedSince(long count) {
                return inside.unchangedSince(count);
            }
        };
    }

    private CompoundLocker lockerOver(PathResolver resolver) {
        return new CompoundLocker(List.of(new CompoundLocker.Export("/", resolver, client -> policy)), "/", table,
                locks, Duration.ofSeconds(5), fenced);
    }

    @Test
    void aPlanIsNotCheckedAgainUnderItsLocksWhenTheHandleTableDidNotChangeSincePlanning() throws IOException {
        java.util.concurrent.atomic.AtomicInteger resolves = new java.util.concurrent.atomic.AtomicInteger();
        CompoundLocker locker = lockerOver(counting(table, resolves, () -> { }));

        Admission a = admit(locker, compound(1, sequence(), putfh(file), write()), false);

        assertThat(a.locks().holds(fileKey(), LockMode.WRITE)).isTrue();
        assertThat(resolves.get()).as("resolved while planning only").isEqualTo(1);
        assertThat(locker.plansUnchecked()).isEqualTo(1);
        assertThat(locker.plansRechecked()).isZero();
    }

    /**
     * A directory renamed between planning and locking (here: right after the planner resolved the handle) moves the
     * file the plan locked by its old path: the change moved the table's count, so the plan is checked again, fails,
     * and the compound is planned again and locks the new path.
     */
    @Test
    void aRenameCommittedBetweenPlanningAndLockingMakesTheCompoundLockTheNewPath() throws IOException {
        Nfh root;
        try (HandleSnapshot snapshot = table.read()) {
            root = snapshot.root("/").orElseThrow();
        }
        java.util.concurrent.atomic.AtomicInteger resolves = new java.util.concurrent.atomic.AtomicInteger();
        Runnable renameOnce = () -> {
            if (resolves.get() == 1) {
                try (HandleBatch batch = table.write()) {
                    batch.rename(root, "d", root, "e");
                    batch.commit();
                }
            }
        };
        CompoundLocker locker = lockerOver(counting(table, resolves, renameOnce));

        Admission a = admit(locker, compound(1, sequence(), putfh(file), write()), false);

        assertThat(a.locks().holds(LockKey.ofPath("/", "e", "f"), LockMode.WRITE)).isTrue();
        assertThat(a.locks().holds(fileKey(), LockMode.READ)).isFalse();
        assertThat(locker.plansRechecked()).as("the first plan, which failed").isEqualTo(1);
        assertThat(locker.plansUnchecked()).as("the second, made after the rename").isEqualTo(1);
    }

    @Test
    void transactionOutsideAnyExportIsRefused() {
        assertThatThrownBy(() -> admit(locker(null, Duration.ofSeconds(5)),
                compound(1, sequence(), op(nfs_opnum4.OP_PUTROOTFH), read()), true))
                .isInstanceOf(NotSuppException.class);
        assertThat(locks.keysInUse()).isZero();
    }

    @Test
    void txnNeverRefusesTheFlagAndTxnAlwaysMakesAChangeATransaction() throws IOException {
        policy = TxnPolicy.NEVER;
        assertThatThrownBy(() -> admit(singleRoot(), compound(1, sequence(), putfh(file), write()), true))
                .isInstanceOf(NotSuppException.class);
        policy = TxnPolicy.ALWAYS;
        assertThat(admit(singleRoot(), compound(1, sequence(), putfh(file), write()), false).transactional()).isTrue();
        held.forEach(LockSet::close);
        held.clear();
        assertThat(admit(singleRoot(), compound(1, sequence(), putfh(file), read()), false).transactional())
                .as("a compound that changes nothing stays plain").isFalse();
    }

    @Test
    void fencedKeysAnswerDelay() {
        fenced.add(fileKey());
        assertThatThrownBy(() -> admit(singleRoot(), compound(1, sequence(), putfh(file), write()), false))
                .isInstanceOf(DelayException.class);
        assertThatThrownBy(() -> admit(singleRoot(), compound(1, sequence(), putfh(file), write(), op(59)), false))
                .as("whole-export locking too").isInstanceOf(DelayException.class);
    }

    @Test
    void busyLocksAnswerDelayAndReleaseWhatWasTaken() throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            LockSet writer = other.submit(() -> locks.acquire(List.of(new LockRequest(fileKey(), LockMode.WRITE)),
                    Duration.ofSeconds(1))).get(5, TimeUnit.SECONDS);
            CompoundLocker locker = locker("/", Duration.ofMillis(100));
            assertThatThrownBy(() -> admit(locker, compound(1, sequence(), op(nfs_opnum4.OP_TEST_STATEID), putfh(file),
                    read()), false)).isInstanceOf(DelayException.class);
            Future<?> released = other.submit(writer::close);
            released.get(5, TimeUnit.SECONDS);
            assertThat(locks.keysInUse()).isZero();
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void handleOfTheOtherExportPlansOnThatExport() throws IOException {
        Admission a = admit(singleRoot(), compound(1, sequence(), op(nfs_opnum4.OP_TEST_STATEID), putfh(other),
                write()), false);

        assertThat(a.exportId()).contains("/other");
        assertThat(a.locks().holds(LockKey.ofPath("/other", "g"), LockMode.WRITE)).isTrue();
    }

    /** A locker over the single export at "/" that runs plain read-only compounds as quiet reads. */
    private CompoundLocker quietReads(Duration timeout) {
        List<CompoundLocker.Export> exports = List.of(
                new CompoundLocker.Export("/", new HandleTableResolver(table, "/"), client -> policy),
                new CompoundLocker.Export("/other", new HandleTableResolver(table, "/other"), client -> policy));
        return new CompoundLocker(exports, "/", table, locks, timeout, fenced,
                CompoundLocker.ReadOnlyCompounds.QUIET_WHEN_NO_WRITER);
    }

    @Test
    void plainReadOnlyCompoundRunsAsAQuietReadWhileNoWriterIsAbout() throws IOException {
        Admission a = admit(quietReads(Duration.ofSeconds(5)), compound(1, sequence(), op(nfs_opnum4.OP_PUTROOTFH),
                lookup("d"), lookup("f"), op(nfs_opnum4.OP_GETFH), op(nfs_opnum4.OP_GETATTR), read()), false);

        assertThat(a.quiet()).isTrue();
        assertThat(a.plan()).isNull();
        assertThat(a.locks().locksHeld()).isZero();
        assertThat(locks.keysInUse()).isZero();
        assertThat(locks.quietReadsInFlight()).isEqualTo(1);
        assertThat(locks.quietReads()).isEqualTo(1);
    }

    @Test
    void plainReadOnlyCompoundTakesItsReadLocksWhileAWriteLockIsHeldElsewhere() throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            LockSet writer = other.submit(() -> locks.acquire(List.of(new LockRequest(LockKey.ofPath("/other", "g"),
                    LockMode.WRITE)), Duration.ofSeconds(1))).get(5, TimeUnit.SECONDS);
            Admission a = admit(quietReads(Duration.ofSeconds(5)), compound(1, sequence(), putfh(file), read()), false);

            assertThat(a.quiet()).isFalse();
            assertThat(a.locks().holds(fileKey(), LockMode.READ)).isTrue();
            assertThat(locks.quietReads()).isZero();
            other.submit(writer::close).get(5, TimeUnit.SECONDS);
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void plainReaderOfAFileAWriterHoldsStillWaitsForIt() throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            LockSet writer = other.submit(() -> locks.acquire(List.of(new LockRequest(fileKey(), LockMode.WRITE)),
                    Duration.ofSeconds(1))).get(5, TimeUnit.SECONDS);
            assertThatThrownBy(() -> admit(quietReads(Duration.ofMillis(100)), compound(1, sequence(), putfh(file),
                    read()), false)).isInstanceOf(DelayException.class);
            other.submit(writer::close).get(5, TimeUnit.SECONDS);
            assertThat(locks.keysInUse()).isZero();
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void compoundsThatChangeSomethingOrAskForATransactionAreNeverQuiet() throws IOException {
        CompoundLocker locker = quietReads(Duration.ofSeconds(5));
        Admission writes = admit(locker, compound(1, sequence(), putfh(file), write()), false);
        assertThat(writes.quiet()).isFalse();
        assertThat(writes.locks().holds(fileKey(), LockMode.WRITE)).isTrue();
        writes.locks().close();

        Admission closes = admit(locker, compound(1, sequence(), putfh(file), op(nfs_opnum4.OP_CLOSE)), false);
        assertThat(closes.quiet()).as("CLOSE changes open state").isFalse();
        closes.locks().close();

        Admission flagged = admit(locker, compound(1, sequence(), putfh(file), read()), true);
        assertThat(flagged.quiet()).isFalse();
        assertThat(flagged.transactional()).isTrue();
        assertThat(flagged.locks().holds(fileKey(), LockMode.READ)).isTrue();
        assertThat(locks.quietReads()).isZero();
    }

    @Test
    void fencedKeysKeepReadersOnTheirLocks() {
        fenced.add(fileKey());

        assertThatThrownBy(() -> admit(quietReads(Duration.ofSeconds(5)), compound(1, sequence(), putfh(file), read()),
                false)).isInstanceOf(DelayException.class);
        assertThat(locks.quietReads()).isZero();
    }
}
