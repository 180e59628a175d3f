package org.tcnfs.txn.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.txn.backup.ReflinkTest.randomBytes;
import static org.tcnfs.txn.backup.TestFileSystems.writeAt;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tcnfs.txn.backup.TestFileSystems.Kind;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.ObjectRef;

/**
 * Sparse files and backups on real file systems (issue 14, item 4): the extent walk ({@code SEEK_DATA} /
 * {@code SEEK_HOLE}) finds exactly the allocated extents, backups save only them, restores punch the holes
 * back ({@code FALLOC_FL_PUNCH_HOLE}), and the backup budget counts allocated bytes, not sizes. Runs on
 * reflink XFS (clones), ext4 and tmpfs (copies).
 */
class SparseBackupTest {
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    private final TestFileSystems.Directories directories = new TestFileSystems.Directories();

    @AfterEach
    void cleanUp() throws IOException {
        directories.deleteAll();
    }

    private Path exportOn(Kind kind) throws IOException {
        return directories.on(kind);
    }

    private static BackupStore storeIn(Path export, BackupBudget budget) throws IOException {
        return BackupStore.open(export.resolve(".tcnfs").resolve("txn"), budget);
    }

    /** Extents as {@code [start, end)} pairs. */
    record Extent(long start, long end) {
    }

    private static List<Extent> extents(Path file, long from, long to) throws IOException {
        List<Extent> found = new ArrayList<>();
        long total = Reflink.load().walkData(file, from, to, (s, e) -> found.add(new Extent(s, e)));
        assertThat(total).isEqualTo(found.stream().mapToLong(x -> x.end() - x.start()).sum());
        return found;
    }

    /**
     * A file of {@code size} bytes with data only at {@code [0, 4096)}, {@code [1 MiB, 1 MiB + 8192)} and in
     * its last 4096 bytes; the rest is a hole. Sized first, so no write extends it (no speculative
     * preallocation past the end).
     */
    private static Path twoExtentFile(Path dir, long size) throws IOException {
        Path file = dir.resolve("sparse");
        setLength(file, size);
        writeAt(file, 0, randomBytes(4096, 1));
        writeAt(file, MIB, randomBytes(8192, 2));
        writeAt(file, size - 4096, randomBytes(4096, 3));
        return file;
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void extentWalkFindsExactlyTheAllocatedExtents(Kind kind) throws IOException {
        Path file = twoExtentFile(exportOn(kind), 3 * MIB);

        assertThat(extents(file, 0, Long.MAX_VALUE)).containsExactly(new Extent(0, 4096),
                new Extent(MIB, MIB + 8192), new Extent(3 * MIB - 4096, 3 * MIB));
        assertThat(Reflink.load().walkData(file, 0, Long.MAX_VALUE, (s, e) -> { })).isEqualTo(16 * 1024);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void extentWalkIsClippedToTheRange(Kind kind) throws IOException {
        Path file = twoExtentFile(exportOn(kind), 3 * MIB);

        assertThat(extents(file, 2048, MIB + 100)).containsExactly(new Extent(2048, 4096), new Extent(MIB, MIB + 100));
        assertThat(extents(file, 4096, MIB)).as("a range inside the hole").isEmpty();
        assertThat(extents(file, 5 * MIB, 6 * MIB)).as("a range past the end").isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void extentWalkOfAFileThatIsOneHoleVisitsNothing(Kind kind) throws IOException {
        Path file = exportOn(kind).resolve("hole");
        setLength(file, 2 * GIB);

        assertThat(extents(file, 0, Long.MAX_VALUE)).isEmpty();
        assertThat(Files.size(file)).isEqualTo(2 * GIB);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void punchedHoleReadsAsZerosTakesNoBlocksAndKeepsTheSize(Kind kind) throws IOException {
        Path file = Files.write(exportOn(kind).resolve("dense"), randomBytes(64 * 1024, 3));
        long before = blocks(file);

        assertThat(Reflink.load().punchHole(file, 16 * 1024, 32 * 1024)).isTrue();

        assertThat(Files.size(file)).isEqualTo(64 * 1024);
        assertThat(read(file, 16 * 1024, 32 * 1024)).isEqualTo(new byte[32 * 1024]);
        assertThat(extents(file, 0, Long.MAX_VALUE)).containsExactly(new Extent(0, 16 * 1024),
                new Extent(48 * 1024, 64 * 1024));
        assertThat(blocks(file)).isEqualTo(before - 64); // 32 KiB in 512-byte blocks
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void truncationBackupOfAFileWithATwoGibHoleSavesOnlyItsDataAndTheRestoreKeepsTheHole(Kind kind)
            throws IOException {
        Path export = exportOn(kind);
        Path file = twoExtentFile(export, 2 * GIB + 4096);
        List<Extent> oldExtents = extents(file, 0, Long.MAX_VALUE);
        byte[] head = read(file, 0, 4096);
        byte[] middle = read(file, MIB, 8192);
        long oldBlocks = blocks(file);
        BackupStore store = storeIn(export, BackupBudget.unlimited());
        BackupManager txn = store.forTransaction("t1");

        long started = System.nanoTime();
        RangeBackup backup = txn.backupRange(file, 0, Long.MAX_VALUE);
        long backupNanos = System.nanoTime() - started;

        assertThat(backup.length()).isEqualTo(2 * GIB + 4096);
        assertThat(txn.bytesCopied() + txn.bytesCloned()).as("saved bytes").isLessThanOrEqualTo(16 * 1024);
        assertThat(txn.bytesCharged()).isEqualTo(16 * 1024);
        assertThat(blocks(backup.backupFile())).as("blocks of the backup file").isLessThanOrEqualTo(oldBlocks);
        assertThat(extents(backup.backupFile(), 0, Long.MAX_VALUE)).isEqualTo(oldExtents);
        assertThat(backupNanos).as("backup time").isLessThan(TimeUnit.SECONDS.toNanos(2));

        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(0);
        }
        started = System.nanoTime();
        txn.restoreRange(backup);
        long restoreNanos = System.nanoTime() - started;

        assertThat(Files.size(file)).isEqualTo(2 * GIB + 4096);
        assertThat(extents(file, 0, Long.MAX_VALUE)).isEqualTo(oldExtents);
        assertBlocks(kind, file, oldBlocks);
        assertThat(read(file, 0, 4096)).isEqualTo(head);
        assertThat(read(file, MIB, 8192)).isEqualTo(middle);
        assertThat(read(file, GIB, 4096)).isEqualTo(new byte[4096]);
        assertThat(restoreNanos).as("restore time").isLessThan(TimeUnit.SECONDS.toNanos(2));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void restorePunchesTheHolesAWriteFilled(Kind kind) throws IOException {
        Path export = exportOn(kind);
        Path file = twoExtentFile(export, 3 * MIB);
        List<Extent> oldExtents = extents(file, 0, Long.MAX_VALUE);
        long oldBlocks = blocks(file);
        BackupManager txn = storeIn(export, BackupBudget.unlimited()).forTransaction("t1");
        RangeBackup backup = txn.backupRange(file, 2048, 2 * MIB - 2048);

        writeAt(file, 2048, randomBytes((int) (2 * MIB - 2048), 9)); // fills the hole between the extents

        txn.restoreRange(backup);
        assertThat(extents(file, 0, Long.MAX_VALUE)).isEqualTo(oldExtents);
        assertBlocks(kind, file, oldBlocks);
        assertThat(read(file, 4096, 8192)).isEqualTo(new byte[8192]);
        txn.restoreRange(backup);
        assertThat(extents(file, 0, Long.MAX_VALUE)).as("restoring twice is harmless").isEqualTo(oldExtents);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void restoreHoleOfAThreeByteWriteIntoAHoleLeavesNoBlockBehind(Kind kind) throws IOException {
        Path export = exportOn(kind);
        Path file = twoExtentFile(export, 3 * MIB);
        List<Extent> oldExtents = extents(file, 0, Long.MAX_VALUE);
        BackupManager txn = storeIn(export, BackupBudget.unlimited()).forTransaction("t1");
        assertThat(txn.allocatedBytes(file, 2 * MIB, 8192)).isZero();

        writeAt(file, 2 * MIB + 100, "new".getBytes(StandardCharsets.UTF_8));
        txn.restoreHole(file, 2 * MIB + 100, 3);

        assertThat(extents(file, 0, Long.MAX_VALUE)).as("the block is a hole again").isEqualTo(oldExtents);
        assertThat(read(file, 2 * MIB + 100, 3)).isEqualTo(new byte[3]);
        assertThat(Files.size(file)).isEqualTo(3 * MIB);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void backupOverThePerTransactionBudgetIsRefusedAndChargesNothing(Kind kind) throws IOException {
        Path export = exportOn(kind);
        Path file = Files.write(export.resolve("dense"), randomBytes(64 * 1024, 4));
        BackupBudget budget = new BackupBudget(48 * 1024, 1 << 20);
        BackupManager txn = storeIn(export, budget).forTransaction("t1");

        txn.backupRange(file, 0, 32 * 1024);
        assertThatThrownBy(() -> txn.backupRange(file, 32 * 1024, 32 * 1024))
                .isInstanceOf(BackupBudgetExceededException.class)
                .hasMessageContaining("per-transaction")
                .satisfies(e -> assertThat(((BackupBudgetExceededException) e).limit())
                        .isEqualTo(BackupBudgetExceededException.Limit.PER_TRANSACTION));

        assertThat(txn.bytesCharged()).isEqualTo(32 * 1024);
        assertThat(budget.used()).isEqualTo(32 * 1024);
        assertThat(budget.refusals()).isEqualTo(1);
        assertThat(txn.backups()).hasSize(1);
        try (var files = Files.list(txn.directory())) {
            assertThat(files).hasSize(1);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void serverWideBudgetIsSharedByTransactionsAndFreedByDiscard(Kind kind) throws IOException {
        Path export = exportOn(kind);
        Path file = Files.write(export.resolve("dense"), randomBytes(64 * 1024, 5));
        BackupBudget budget = new BackupBudget(64 * 1024, 96 * 1024);
        BackupStore store = storeIn(export, budget);
        BackupManager first = store.forTransaction("t1");
        BackupManager second = store.forTransaction("t2");

        first.backupRange(file, 0, 64 * 1024);
        assertThatThrownBy(() -> second.backupRange(file, 0, 64 * 1024))
                .isInstanceOf(BackupBudgetExceededException.class).hasMessageContaining("server-wide");
        assertThat(second.bytesCharged()).isZero();

        first.discard();
        assertThat(budget.used()).isZero();
        second.backupRange(file, 0, 64 * 1024);
        assertThat(budget.used()).isEqualTo(64 * 1024);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void holesCostNothingAgainstTheBudget(Kind kind) throws IOException {
        Path export = exportOn(kind);
        Path file = twoExtentFile(export, 1L << 40); // 1 TiB, 16 KiB of data
        BackupBudget budget = new BackupBudget(MIB, MIB);
        BackupManager txn = storeIn(export, budget).forTransaction("t1");

        RangeBackup backup = txn.backupRange(file, 0, Long.MAX_VALUE);

        assertThat(backup.length()).isEqualTo(1L << 40);
        assertThat(txn.bytesCharged()).isEqualTo(16 * 1024);
        assertThat(budget.used()).isEqualTo(16 * 1024);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void plannedBackupsAreCheckedInAllocatedBytesBeforeAnythingIsSaved(Kind kind) throws IOException {
        Path export = exportOn(kind);
        Path file = twoExtentFile(export, 1L << 40); // 16 KiB of data in 1 TiB
        Files.write(export.resolve("dense"), randomBytes(64 * 1024, 6));
        BackupBudget budget = new BackupBudget(64 * 1024, 64 * 1024);
        BackupManager txn = storeIn(export, budget).forTransaction("t1");
        ObjectRef sparse = new ObjectRef(ObjectPath.of("exp", "sparse"), Optional.of(ObjectPath.of("exp", "sparse")));
        ObjectRef dense = new ObjectRef(ObjectPath.of("exp", "dense"), Optional.of(ObjectPath.of("exp", "dense")));
        ObjectRef created = new ObjectRef(ObjectPath.of("exp", "new"), Optional.empty());
        Function<ObjectPath, Optional<Path>> local = regularFilesIn(export);

        long planned = txn.checkBudget(List.of(
                new Mutation.Write(1, sparse, MIB, 100_000), // 8 KiB of data in the range, the rest a hole
                new Mutation.SizeChange(2, sparse, 0, Mutation.SizeChange.Cause.SETATTR), // 16 KiB of data
                new Mutation.Write(3, created, 0, 1 << 20)), local); // a new file: nothing to save

        assertThat(planned).isEqualTo(24 * 1024);
        assertThat(budget.used()).as("a check charges nothing").isZero();
        assertThatThrownBy(() -> txn.checkBudget(List.of(
                new Mutation.SizeChange(1, dense, 0, Mutation.SizeChange.Cause.SETATTR),
                new Mutation.Write(2, sparse, 0, 4096)), local))
                .isInstanceOf(BackupBudgetExceededException.class)
                .hasMessageContaining((68 * 1024) + " more allocated bytes");
        assertThat(Files.exists(txn.directory())).as("nothing saved").isFalse();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void plannedBackupsThatDoNotFitTheFreeSpaceLessTheReserveAreRefusedBeforeAnythingIsSaved(Kind kind)
            throws IOException {
        Path export = exportOn(kind);
        Files.write(export.resolve("dense"), randomBytes(64 * 1024, 7));
        // a reserve above the free space leaves no room whatever else frees space on this file system meanwhile
        // (with the reserve left out, the 64 KiB backup would fit)
        long free = Files.getFileStore(export).getUsableSpace();
        BackupBudget budget = new BackupBudget(MIB, MIB, free + 256 * MIB);
        BackupManager txn = storeIn(export, budget).forTransaction("t1");
        ObjectRef dense = new ObjectRef(ObjectPath.of("exp", "dense"), Optional.of(ObjectPath.of("exp", "dense")));
        ObjectRef created = new ObjectRef(ObjectPath.of("exp", "new"), Optional.empty());
        Function<ObjectPath, Optional<Path>> local = regularFilesIn(export);

        assertThat(txn.checkBudget(List.of(new Mutation.Write(1, created, 0, MIB)), local))
                .as("nothing to save needs no room").isZero();
        assertThatThrownBy(() -> txn.checkBudget(List.of(
                new Mutation.SizeChange(1, dense, 0, Mutation.SizeChange.Cause.SETATTR)), local))
                .isInstanceOf(BackupBudgetExceededException.class)
                .hasMessageContaining("free bytes of the export's file system")
                .hasMessageContaining("backup-disk-reserve")
                .satisfies(e -> assertThat(((BackupBudgetExceededException) e).limit())
                        .isEqualTo(BackupBudgetExceededException.Limit.DISK_SPACE));
        assertThat(Files.exists(txn.directory())).as("nothing saved").isFalse();
        assertThat(budget.refusals()).isEqualTo(1);
    }

    // ---- helpers

    /** The local path of an object path under {@code export} where a regular file is, as the preparer answers it. */
    private static Function<ObjectPath, Optional<Path>> regularFilesIn(Path export) {
        return p -> Optional.of(export.resolve(String.join("/", p.components())))
                .filter(x -> Files.isRegularFile(x, LinkOption.NOFOLLOW_LINKS));
    }

    /** Creates or resizes {@code file} to {@code size} without writing: a hole up to the new end. */
    private static void setLength(Path file, long size) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(size);
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

    /**
     * The file takes as many blocks as before; on reflink XFS up to 32 KiB more, which the file system may
     * keep as copy-on-write preallocation next to blocks that were cloned back.
     */
    private static void assertBlocks(Kind kind, Path file, long expected) throws IOException {
        if (kind.reflinks()) {
            assertThat(blocks(file)).as("st_blocks").isBetween(expected, expected + 64);
        } else {
            assertThat(blocks(file)).as("st_blocks").isEqualTo(expected);
        }
    }

    /** {@code st_blocks} (512-byte units), by stat(1). */
    static long blocks(Path file) throws IOException {
        Process p = new ProcessBuilder("stat", "--format=%b", file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return Long.parseLong(out);
    }
}
