package org.tcnfs.jmh;

import java.io.IOException;
import java.nio.ByteBuffer;
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
import org.tcnfs.nfs4.attr.Bitmaps;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.xdr.ACCESS4args;
import org.tcnfs.nfs4.xdr.CLOSE4args;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.GETATTR4args;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.REMOVE4args;
import org.tcnfs.nfs4.xdr.SEQUENCE4args;
import org.tcnfs.nfs4.xdr.SETATTR4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs4_attr;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_fh4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_owner4;
import org.tcnfs.nfs4.xdr.openflag4;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.stateid4;
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
    private static final int WALK_DEPTH = 10;

    private Path dir;
    private HandleTable table;
    private HandleTableResolver resolver;
    private final LockManager locks = new LockManager();
    private final CompoundPlanner planner = new CompoundPlanner();
    private COMPOUND4args rmBatch;
    private COMPOUND4args oneRemove;
    private COMPOUND4args getattr;
    private COMPOUND4args access;
    private COMPOUND4args walk;
    private COMPOUND4args openCreate;
    private COMPOUND4args write;
    private COMPOUND4args setattr;
    private COMPOUND4args close;
    private COMPOUND4args openWriteClose;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = BenchDirs.create("planning-");
        table = HandleTable.open(dir);
        resolver = new HandleTableResolver(table, EXPORT);
        Nfh root;
        List<Nfh> level = new ArrayList<>();
        long ino = 100;
        Nfh file;
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
            Nfh walked = root;
            for (int d = 1; d < WALK_DEPTH; d++) {
                walked = batch.register(walked, "w" + d, FileType.DIRECTORY, 1, ino++, 0);
            }
            batch.register(walked, "f", FileType.REGULAR, 1, ino++, 0);
            file = batch.register(level.get(1), "g", FileType.REGULAR, 1, ino++, 0);
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
        getattr = compound(List.of(putfh(file), getattrOp()));
        access = compound(List.of(putfh(file), new nfs_argop4(nfs_opnum4.OP_ACCESS, new ACCESS4args(0x3f))));
        List<nfs_argop4> walkOps = new ArrayList<>();
        walkOps.add(new nfs_argop4(nfs_opnum4.OP_PUTROOTFH, null));
        for (int d = 1; d < WALK_DEPTH; d++) {
            walkOps.add(new nfs_argop4(nfs_opnum4.OP_LOOKUP, new LOOKUP4args("w" + d)));
        }
        walkOps.add(new nfs_argop4(nfs_opnum4.OP_LOOKUP, new LOOKUP4args("f")));
        walkOps.add(new nfs_argop4(nfs_opnum4.OP_GETFH, null));
        walkOps.add(getattrOp());
        walk = compound(walkOps);
        openCreate = compound(List.of(putfh(level.get(2)), openCreateOp("new"), new nfs_argop4(nfs_opnum4.OP_GETFH, null),
                getattrOp()));
        write = compound(List.of(putfh(file), writeOp()));
        setattr = compound(List.of(putfh(file), new nfs_argop4(nfs_opnum4.OP_SETATTR, new SETATTR4args(new stateid4(),
                new fattr4(Bitmaps.of(nfs4_attr.FATTR4_MODE), ByteBuffer.allocate(4).putInt(0644).array())))));
        close = compound(List.of(putfh(file), closeOp()));
        openWriteClose = compound(List.of(new nfs_argop4(nfs_opnum4.OP_SEQUENCE, new SEQUENCE4args()),
                putfh(level.get(3)), openCreateOp("new"), writeOp(), closeOp()));
        openWriteClose.minorversion = 1;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        table.close();
        BenchDirs.delete(dir);
    }

    private static nfs_argop4 putfh(Nfh handle) {
        return new nfs_argop4(nfs_opnum4.OP_PUTFH, new PUTFH4args(new nfs_fh4(handle.toBytes())));
    }

    private static nfs_argop4 getattrOp() {
        return new nfs_argop4(nfs_opnum4.OP_GETATTR,
                new GETATTR4args(Bitmaps.of(nfs4_attr.FATTR4_SIZE, nfs4_attr.FATTR4_MODE)));
    }

    private static nfs_argop4 openCreateOp(String name) {
        return new nfs_argop4(nfs_opnum4.OP_OPEN, new OPEN4args(0, OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                OPEN4args.OPEN4_SHARE_DENY_NONE, new open_owner4(1, new byte[] {1}),
                openflag4.create(createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4())),
                open_claim4.byName(name)));
    }

    private static nfs_argop4 writeOp() {
        return new nfs_argop4(nfs_opnum4.OP_WRITE,
                new WRITE4args(new stateid4(), 0, stable_how4.UNSTABLE4, ByteBuffer.allocate(4096)));
    }

    private static nfs_argop4 closeOp() {
        return new nfs_argop4(nfs_opnum4.OP_CLOSE, new CLOSE4args(0, new stateid4()));
    }

    private static COMPOUND4args compound(List<nfs_argop4> ops) {
        COMPOUND4args args = new COMPOUND4args();
        args.tag = "bench";
        args.minorversion = 0;
        args.argarray = ops.toArray(new nfs_argop4[0]);
        return args;
    }

    private boolean admit(COMPOUND4args args) throws Exception {
        long changeCount = resolver.changeCount();
        TxnPlan plan = planner.plan(args, resolver);
        try (LockSet set = locks.acquire(plan.lockRequests(), Duration.ofSeconds(5))) {
            return resolver.unchangedSince(changeCount) || plan.assumptionsHold(resolver);
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

    /** Plans, locks and checks {@code PUTFH file, GETATTR}. */
    @Benchmark
    public boolean admitGetattr() throws Exception {
        return admit(getattr);
    }

    /** Plans, locks and checks {@code PUTFH file, ACCESS}. */
    @Benchmark
    public boolean admitAccess() throws Exception {
        return admit(access);
    }

    /** Plans, locks and checks libnfs's walk {@code PUTROOTFH, LOOKUP x10, GETFH, GETATTR}. */
    @Benchmark
    public boolean admitLookupWalk() throws Exception {
        return admit(walk);
    }

    /** Plans, locks and checks {@code PUTFH dir, OPEN(create), GETFH, GETATTR}. */
    @Benchmark
    public boolean admitOpenCreate() throws Exception {
        return admit(openCreate);
    }

    /** Plans, locks and checks {@code PUTFH file, WRITE}. */
    @Benchmark
    public boolean admitWrite() throws Exception {
        return admit(write);
    }

    /** Plans, locks and checks {@code PUTFH file, SETATTR(mode)}. */
    @Benchmark
    public boolean admitSetattr() throws Exception {
        return admit(setattr);
    }

    /** Plans, locks and checks {@code PUTFH file, CLOSE}. */
    @Benchmark
    public boolean admitClose() throws Exception {
        return admit(close);
    }

    /** Plans, locks and checks the driver's one-file compound {@code SEQUENCE, PUTFH dir, OPEN(create), WRITE, CLOSE}. */
    @Benchmark
    public boolean admitOpenWriteClose() throws Exception {
        return admit(openWriteClose);
    }
}
