package org.tcnfs.txn.handles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.lmdbjava.Dbi;
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

/**
 * Point reads of {@link PendingRows} (the rows an {@code async} export keeps in memory until the next LMDB commit):
 * a name kept there, and a name not kept (which then reads the store beneath, here an empty one), with
 * {@code rows} rows kept. In txn-core's package because the class is package-private.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PendingRowsBenchmark {
    @Param({"1000", "30000"})
    public int rows;

    private Path dir;
    private HandleTable table;
    private Store reader;
    private Dbi<byte[]> names;
    private byte[][] kept;
    private byte[][] missing;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("pending-rows-");
        table = HandleTable.builder(dir).open();
        names = table.names;
        Nfh root;
        try (HandleBatch batch = table.write()) {
            root = batch.ensureRoot("bench", 1, 1, 0);
            batch.commit();
        }
        PendingRows pending = new PendingRows(rows + 1, java.util.Set.of(names));
        OverlayStore changes = new OverlayStore(EMPTY);
        kept = new byte[rows][];
        missing = new byte[1024][];
        for (int i = 0; i < rows; i++) {
            kept[i] = Codec.nameKey(root, "file-" + i + ".txt");
            changes.put(names, kept[i], Codec.nameKey(root, "value"));
        }
        for (int i = 0; i < missing.length; i++) {
            missing[i] = Codec.nameKey(root, "absent-" + i + ".txt");
        }
        if (!pending.tryAdd(changes)) {
            throw new IllegalStateException("rows do not fit");
        }
        reader = pending.over(EMPTY);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        table.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Benchmark
    public byte[] getKept() {
        next = (next + 7919) % rows;
        return reader.get(names, kept[next]);
    }

    @Benchmark
    public byte[] getMissing() {
        next = (next + 1) & (missing.length - 1);
        return reader.get(names, missing[next]);
    }

    private static final Store EMPTY = new Store.ReadOnly() {
        @Override
        public byte[] get(Dbi<byte[]> dbi, byte[] key) {
            return null;
        }

        @Override
        public void scan(Dbi<byte[]> dbi, byte[] prefix, BiConsumer<byte[], byte[]> action) {
        }
    };
}
