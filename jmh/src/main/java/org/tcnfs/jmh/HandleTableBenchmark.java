package org.tcnfs.jmh;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.txn.handles.HandleBatch;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.handles.TxnBuffer;

/**
 * The LMDB handle table: a lookup by handle; one registration per durable commit (what a plain CREATE
 * costs); and 100 registrations kept in a transaction's TXN buffer and applied by one commit (what a
 * transactional compound creating 100 files costs), under each {@link HandleTable.Durability}; and eight
 * threads committing one row each, with and without group commit.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HandleTableBenchmark {
    @Param({"FULL", "NONE"})
    public HandleTable.Durability durability;

    private Path dir;
    private HandleTable table;
    private Nfh root;
    private Nfh known;
    private org.tcnfs.txn.handles.SideTable side;
    private final AtomicLong inodes = new AtomicLong(1_000);

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = BenchDirs.create("handles-");
        table = HandleTable.builder(dir).durability(durability).open();
        side = table.sideTable("bench");
        try (HandleBatch batch = table.write()) {
            root = batch.ensureRoot("bench", 1, 1, 0);
            known = batch.register(root, "known", FileType.REGULAR, 1, 2, 0);
            batch.commit();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        table.close();
        BenchDirs.delete(dir);
    }

    @Benchmark
    public Object lookupByHandle() {
        return table.node(known);
    }

    @Benchmark
    public Nfh registerOnePerCommit() {
        long ino = inodes.incrementAndGet();
        try (HandleBatch batch = table.write()) {
            Nfh h = batch.register(root, "f" + ino, FileType.REGULAR, 1, ino, 0);
            batch.commit();
            return h;
        }
    }

    /** Eight threads each committing one small change: with group commit they share syncs. */
    @Benchmark
    @org.openjdk.jmh.annotations.Threads(8)
    public int groupCommitOneRowEach() {
        long ino = inodes.incrementAndGet();
        table.commitDurably(batch -> batch.put(side, key(ino), new byte[16]));
        return 1;
    }

    /** The same eight threads, each with its own LMDB commit (what a commit without grouping costs). */
    @Benchmark
    @org.openjdk.jmh.annotations.Threads(8)
    public int ownCommitOneRowEach() {
        long ino = inodes.incrementAndGet();
        try (HandleBatch batch = table.write()) {
            batch.put(side, key(ino), new byte[16]);
            batch.commit();
        }
        return 1;
    }

    private static byte[] key(long value) {
        return java.nio.ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    @Benchmark
    @org.openjdk.jmh.annotations.OperationsPerInvocation(100)
    public int register100InOneBufferedCommit() {
        TxnBuffer buffer = table.buffer();
        try (HandleTable.Binding bound = table.bind(buffer)) {
            for (int i = 0; i < 100; i++) {
                long ino = inodes.incrementAndGet();
                try (HandleBatch batch = table.write()) {
                    batch.register(root, "f" + ino, FileType.REGULAR, 1, ino, 0);
                    batch.commit();
                }
            }
        }
        int rows = buffer.changedRows();
        buffer.commit(batch -> { });
        return rows;
    }
}
