package org.tcnfs.txn.undo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.proto.ObjectRef;
import org.tcnfs.proto.RecoveryRecord;
import org.tcnfs.proto.RecoveryRecords;
import org.tcnfs.proto.RelativePath;
import org.tcnfs.proto.SavedRange;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.CrashPoints;
import org.tcnfs.txn.backup.BackupManager;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.backup.RangeBackup;
import org.tcnfs.txn.backup.Reflink;

/**
 * Undo of sparse files from the record alone, as recovery runs it after a crash (issue 14, item 4): a range
 * saved as a hole is punched again, a backup file's holes are punched back, and the file ends with the same
 * allocated extents and content as before the transaction.
 */
class UndoExecutorSparseTest {
    private static final long MIB = 1L << 20;
    private static final long TXN = 7;

    @TempDir
    Path base;

    private Path root;
    private BackupStore store;
    private BackupManager backups;

    @BeforeEach
    void setUp() throws IOException {
        root = Files.createDirectories(base.resolve("export"));
        store = BackupStore.open(base.resolve("backups"));
        backups = store.forTransaction(Long.toString(TXN));
    }

    @Test
    void recoveryPunchesHoleRangesAndBackupHolesBackSoSparseFilesKeepTheirExtents() throws IOException {
        Path written = sparse("written", 8 * MIB);
        Path truncated = sparse("truncated", 8 * MIB);
        List<String> writtenBefore = extents(written);
        List<String> truncatedBefore = extents(truncated);
        assertThat(backups.allocatedBytes(written, 2 * MIB + 100, 3)).isZero();
        RangeBackup cut = backups.backupRange(truncated, 4096, Long.MAX_VALUE);
        backups.makeDurable();
        RecoveryRecord record = RecoveryRecord.builder(TXN, "exp", Instant.parse("2026-11-26T02:00:00Z")).opCount(2)
                .step(new UndoStep.RestoreRanges(0, ref("written", written), 8 * MIB,
                        List.of(SavedRange.hole(2 * MIB + 100, 3))))
                .step(new UndoStep.RestoreRanges(1, ref("truncated", truncated), 8 * MIB,
                        List.of(SavedRange.inBackup(4096, cut.length(),
                                RelativePath.of(cut.backupFile().getFileName().toString()), 4096))))
                .build();
        writeAt(written, 2 * MIB + 100, "abc".getBytes(StandardCharsets.UTF_8));
        try (FileChannel ch = FileChannel.open(truncated, StandardOpenOption.WRITE)) {
            ch.truncate(4096);
        }

        // the record as recovery reads it back from LMDB, and an executor of a fresh process
        RecoveryRecord stored = RecoveryRecords.decode(RecoveryRecords.encode(record));
        UndoExecutor recovery = new UndoExecutor(root, BackupStore.open(base.resolve("backups")), CrashPoints.NONE,
                "mid-recovery-");
        List<RecoveryRecord> progress = new ArrayList<>();
        recovery.undo(stored, progress::add);

        assertThat(extents(written)).isEqualTo(writtenBefore);
        assertThat(extents(truncated)).isEqualTo(truncatedBefore);
        assertThat(Files.size(truncated)).isEqualTo(8 * MIB);
        assertThat(read(written, 2 * MIB, 4096)).isEqualTo(new byte[4096]);

        recovery.undo(stored, progress::add);
        assertThat(extents(written)).as("undoing twice is harmless").isEqualTo(writtenBefore);
        assertThat(extents(truncated)).as("undoing twice is harmless").isEqualTo(truncatedBefore);
    }

    /** Data at {@code [0, 4096)} and {@code [4 MiB, 4 MiB + 8192)}, a hole elsewhere. */
    private Path sparse(String name, long size) throws IOException {
        Path file = root.resolve(name);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(size);
        }
        writeAt(file, 0, pattern(4096, name.hashCode()));
        writeAt(file, 4 * MIB, pattern(8192, name.hashCode() + 1));
        return file;
    }

    /** The allocated extents, each with a hash of its bytes. */
    private static List<String> extents(Path file) throws IOException {
        List<String> result = new ArrayList<>();
        Reflink.load().walkData(file, 0, Long.MAX_VALUE, (start, end) -> result.add(start + "+" + (end - start)
                + "#" + java.util.Arrays.hashCode(read(file, start, (int) (end - start)))));
        return result;
    }

    private static ObjectRef ref(String path, Path local) throws IOException {
        return new ObjectRef(RelativePath.of(path), Optional.empty(),
                OptionalLong.of(UndoExecutor.fileIdOf(local).orElseThrow()));
    }

    private static byte[] pattern(int length, int seed) {
        byte[] data = new byte[length];
        for (int i = 0; i < length; i++) {
            data[i] = (byte) (i * 31 + seed);
        }
        return data;
    }

    private static void writeAt(Path file, long offset, byte[] data) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(data), offset);
        }
    }

    private static byte[] read(Path file, long offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (buffer.hasRemaining() && ch.read(buffer, offset + buffer.position()) > 0) {
                // reading
            }
        }
        return buffer.array();
    }
}
