package org.tcnfs.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
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
import org.tcnfs.txn.backup.BackupManager;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.backup.RangeBackup;

/**
 * Saving a range before it is overwritten: {@code FICLONERANGE} (on a reflink file system; elsewhere the
 * clone is refused and the manager copies, which is then what {@link #backupRange} measures) against a
 * plain copy of the same bytes, 4 KiB to 16 MiB, each followed by the one fsync pass a transaction makes;
 * and the undo of such a WRITE ({@link #backupThenRestore}). Run with {@code -Dtcnfs.bench.dir} on the file
 * system to measure (docs/benchmarks.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BackupBenchmark {
    @Param({"4096", "65536", "1048576", "16777216"})
    public int bytes;

    private Path dir;
    private Path file;
    private BackupStore store;
    private final AtomicLong txn = new AtomicLong();

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = BenchDirs.create("backup-");
        file = dir.resolve("data");
        byte[] data = new byte[bytes];
        new Random(1).nextBytes(data);
        Files.write(file, data);
        store = BackupStore.open(dir.resolve("area"));
        System.out.println("# " + dir + (clones() ? " clones (FICLONERANGE)" : " does not clone: backups are copies"));
    }

    private boolean clones() throws IOException {
        BackupManager probe = store.forTransaction("probe");
        RangeBackup b = probe.backupRange(file, 0, bytes);
        probe.discard();
        return b.method() == RangeBackup.Method.CLONED;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        BenchDirs.delete(dir);
    }

    @Benchmark
    public long backupRange() throws IOException {
        BackupManager m = store.forTransaction(Long.toString(txn.incrementAndGet()));
        RangeBackup b = m.backupRange(file, 0, bytes);
        m.makeDurable();
        m.discard();
        return b.length();
    }

    @Benchmark
    public long copyRange() throws IOException {
        Path copy = dir.resolve("copy-" + txn.incrementAndGet());
        try (var in = java.nio.channels.FileChannel.open(file);
                var out = java.nio.channels.FileChannel.open(copy, java.nio.file.StandardOpenOption.CREATE_NEW,
                        java.nio.file.StandardOpenOption.WRITE)) {
            long done = 0;
            while (done < bytes) {
                done += in.transferTo(done, bytes - done, out);
            }
            out.force(true);
        }
        Files.delete(copy);
        return bytes;
    }

    @Benchmark
    public long backupThenRestore() throws IOException {
        BackupManager m = store.forTransaction(Long.toString(txn.incrementAndGet()));
        RangeBackup b = m.backupRange(file, 0, bytes);
        m.makeDurable();
        m.restoreRange(b);
        m.makeDurable();
        m.discard();
        return b.length();
    }
}
