package org.tcnfs.jmh;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
import org.tcnfs.nfs4.compound.OperationSet;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.txn.handles.HandleBatch;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.handles.Node;
import org.tcnfs.txn.handles.TxnBuffer;

/**
 * Small costs every operation of a plain compound pays: a handle-table read answered from the table's cache
 * ({@link HandleTable#cachedRead}) on a thread bound to a plain compound's empty buffer, as the request threads are
 * (the cache first asks the buffer whether it holds rows), and the test of an operation number against a set of
 * them, boxed ({@code Set<Integer>}) and as an {@link OperationSet}, over the operations of a fuse-nfs compound.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HotPathBenchmark {
    private static final int[] OPS = {OP_PUTFH, OP_LOOKUP, OP_GETFH, OP_GETATTR, OP_OPEN, OP_WRITE, OP_CLOSE};
    private static final Set<Integer> BOXED = Set.of(OP_SEQUENCE, OP_PUTFH, OP_PUTROOTFH, OP_PUTPUBFH, OP_GETFH,
            OP_LOOKUP, OP_LOOKUPP, OP_SAVEFH, OP_RESTOREFH, OP_GETATTR, OP_ACCESS, OP_VERIFY, OP_NVERIFY, OP_READDIR,
            OP_READLINK, OP_SECINFO, OP_SECINFO_NO_NAME);
    private static final OperationSet BITS = OperationSet.of(OP_SEQUENCE, OP_PUTFH, OP_PUTROOTFH, OP_PUTPUBFH,
            OP_GETFH, OP_LOOKUP, OP_LOOKUPP, OP_SAVEFH, OP_RESTOREFH, OP_GETATTR, OP_ACCESS, OP_VERIFY, OP_NVERIFY,
            OP_READDIR, OP_READLINK, OP_SECINFO, OP_SECINFO_NO_NAME);

    private Path dir;
    private HandleTable table;
    private Nfh known;
    private HandleTable.Binding binding;
    private int next;

    /** The key of the benchmark's cached read. */
    private record ExportOfKnown(Nfh handle) {
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = BenchDirs.create("hot-path-");
        table = HandleTable.builder(dir).open();
        try (HandleBatch batch = table.write()) {
            Nfh root = batch.ensureRoot("bench", 1, 1, 0);
            known = batch.register(root, "known", FileType.REGULAR, 1, 2, 0);
            batch.commit();
        }
        TxnBuffer buffer = table.plainBuffer();
        binding = table.bind(buffer);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        binding.close();
        table.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Benchmark
    public Optional<String> cachedReadOnAPlainCompoundsThread() {
        return table.cachedRead(new ExportOfKnown(known), snapshot -> snapshot.node(known).map(Node::exportId));
    }

    @Benchmark
    public boolean boxedOperationSet() {
        next = (next + 1) % OPS.length;
        return BOXED.contains(OPS[next]);
    }

    @Benchmark
    public boolean operationSet() {
        next = (next + 1) % OPS.length;
        return BITS.contains(OPS[next]);
    }
}
