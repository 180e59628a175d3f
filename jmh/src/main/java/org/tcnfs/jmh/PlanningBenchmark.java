package org.tcnfs.jmh;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.REMOVE4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_fh4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.txn.HandleTableResolver;
import org.tcnfs.txn.handles.HandleBatch;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.lock.LockManager;
import org.tcnfs.txn.lock.LockSet;
import org.tcnfs.txn.plan.CompoundPlanner;
import org.tcnfs.txn.plan.TxnPlan;

/**
 * What admitting a plain compound costs before its first operation runs (issue 16, rm -rf): planning it over the
 * LMDB handle table, taking its locks and checking the plan's assumptions again under them, as
 * {@code CompoundLocker.admit} does. Two shapes: the workload driver's rm -rf compound (64 removals of files in
 * random directories five levels deep, each {@code PUTFH root, LOOKUP x5, REMOVE}) and an unmodified client's
 * {@code PUTFH dir, REMOVE}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PlanningBenchmark {
    private static final String EXPORT = "bench";
    private static final int FANOUT = 4;
    private static final int DEPTH = 5;
    private static final int REMOVALS = 64;

    private Path dir;
    private HandleTable table;
    private HandleTableResolver resolver;
    private final LockManager locks = new LockManager();
    private final CompoundPlanner planner = new CompoundPlanner();
    private COMPOUND4args rmBatch;
    private COMPOUND4args oneRemove;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = BenchDirs.create("planning-");
        table = HandleTable.open(dir);
        resolver = new HandleTableResolver(table, EXPORT);
        Nfh root;
        List<Nfh> level = new ArrayList<>();
        long ino = 100;
        try (HandleBatch batch = table.write()) {
            root = batch.ensureRoot(EXPORT, 1, ino++, 0);
            level.add(root);
            for (int d = 0; d < DEPTH; d++) {
                List<Nfh> next = new ArrayList<>();
                for (Nfh parent : level) {
                    for (int i = 0; i < FANOUT; i++) {
                        next.add(batch.register(parent, "d" + i, FileType.DIRECTORY, 1, ino++, 0));
                    }
                }
                level = next;
            }
            for (Nfh leaf : level) {
                batch.register(leaf, "f", FileType.REGULAR, 1, ino++, 0);
            }
            batch.commit();
        }
        Random random = new Random(16);
        List<nfs_argop4> ops = new ArrayList<>();
        for (int r = 0; r < REMOVALS; r++) {
            ops.add(putfh(root));
            for (int d = 0; d < DEPTH; d++) {
                ops.add(new nfs_argop4(nfs_opnum4.OP_LOOKUP, new LOOKUP4args("d" + random.nextInt(FANOUT))));
            }
            ops.add(new nfs_argop4(nfs_opnum4.OP_REMOVE, new REMOVE4args("f")));
        }
        rmBatch = compound(ops);
        oneRemove = compound(List.of(putfh(level.get(0)), new nfs_argop4(nfs_opnum4.OP_REMOVE, new REMOVE4args("f"))));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        table.close();
        BenchDirs.delete(dir);
    }

    private static nfs_argop4 putfh(Nfh handle) {
        return new nfs_argop4(nfs_opnum4.OP_PUTFH, new PUTFH4args(new nfs_fh4(handle.toBytes())));
    }

    private static COMPOUND4args compound(List<nfs_argop4> ops) {
        COMPOUND4args args = new COMPOUND4args();
        args.tag = "bench";
        args.minorversion = 0;
        args.argarray = ops.toArray(new nfs_argop4[0]);
        return args;
    }

    private boolean admit(COMPOUND4args args) throws Exception {
        TxnPlan plan = planner.plan(args, resolver);
        try (LockSet set = locks.acquire(plan.lockRequests(), Duration.ofSeconds(5))) {
            return plan.assumptionsHold(resolver);
        }
    }

    /** Plans the driver's rm -rf compound (64 REMOVEs, 320 LOOKUPs). */
    @Benchmark
    public TxnPlan planRmBatch() throws IOException {
        return planner.plan(rmBatch, resolver);
    }

    /** Plans, locks and checks the driver's rm -rf compound, as CompoundLocker.admit does. */
    @Benchmark
    public boolean admitRmBatch() throws Exception {
        return admit(rmBatch);
    }

    /** Plans, locks and checks {@code PUTFH dir, REMOVE}. */
    @Benchmark
    public boolean admitOneRemove() throws Exception {
        return admit(oneRemove);
    }
}
