package org.tcnfs.jmh;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
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
import org.tcnfs.proto.ObjectKind;
import org.tcnfs.proto.ObjectRef;
import org.tcnfs.proto.RecoveryRecord;
import org.tcnfs.proto.RecoveryRecords;
import org.tcnfs.proto.RelativePath;
import org.tcnfs.proto.SavedRange;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.handles.HandleBatch;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.SideTable;

/**
 * Recovery records of 10 to 1,000 steps (half file creations, half 4 KiB inline saved ranges): encoding
 * alone, encoding plus the durable LMDB commit that writes it (the cost a transaction pays once before
 * its first change), and, for comparison, encoding plus an append to a preallocated log file made durable
 * with one fdatasync (what an append-only recovery log would pay instead; docs/benchmarks.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RecoveryRecordBenchmark {
    /** The preallocated size of the log file; appends wrap around within it. */
    private static final long LOG_BYTES = 64L * 1024 * 1024;

    @Param({"10", "100", "1000"})
    public int steps;

    private RecoveryRecord record;
    private Path dir;
    private HandleTable table;
    private SideTable records;
    private FileChannel log;
    private long logOffset;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        RecoveryRecord.Builder b = RecoveryRecord.builder(42, "bench", Instant.now()).opCount(steps * 2)
                .backupDirectory(".tcnfs/txn/42");
        byte[] old = new byte[4096];
        for (int i = 0; i < steps; i++) {
            RelativePath p = RelativePath.of("dir", "file-" + i);
            if (i % 2 == 0) {
                b.step(new UndoStep.RemoveCreated(i, ObjectRef.at(p), ObjectKind.REGULAR));
            } else {
                b.step(new UndoStep.RestoreRanges(i, ObjectRef.at(p).withFileId(1000 + i), 8192,
                        java.util.List.of(SavedRange.inline(0, old))));
            }
        }
        record = b.build();
        dir = BenchDirs.create("records-");
        table = HandleTable.open(dir);
        records = table.sideTable("bench-records");
        log = FileChannel.open(dir.resolve("records.log"), StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        ByteBuffer zeros = ByteBuffer.allocate(1024 * 1024);
        for (long off = 0; off < LOG_BYTES; off += zeros.capacity()) {
            log.write(zeros.clear(), off);
        }
        log.force(true);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        log.close();
        table.close();
        BenchDirs.delete(dir);
    }

    @Benchmark
    public byte[] encode() {
        return RecoveryRecords.encode(record);
    }

    @Benchmark
    public int encodeAndCommitDurably() {
        byte[] value = RecoveryRecords.encode(record);
        try (HandleBatch batch = table.write()) {
            batch.put(records, new byte[] {1}, value);
            batch.commit();
        }
        return value.length;
    }

    @Benchmark
    public int encodeAndAppendWithFdatasync() throws IOException {
        byte[] value = RecoveryRecords.encode(record);
        if (logOffset + value.length > LOG_BYTES) {
            logOffset = 0;
        }
        ByteBuffer buffer = ByteBuffer.wrap(value);
        while (buffer.hasRemaining()) {
            logOffset += log.write(buffer, logOffset);
        }
        log.force(false);
        return value.length;
    }
}
