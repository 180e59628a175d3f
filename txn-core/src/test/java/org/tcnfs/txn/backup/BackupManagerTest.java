package org.tcnfs.txn.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.txn.backup.ReflinkTest.randomBytes;
import static org.tcnfs.txn.backup.TestFileSystems.writeAt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tcnfs.txn.backup.RangeBackup.Method;
import org.tcnfs.txn.backup.TestFileSystems.Kind;

/**
 * The backup manager on real file systems: reflink XFS (clones), ext4 and tmpfs (copies). Every test that
 * runs on all three expects the same files afterwards; only the method and the counters differ.
 */
class BackupManagerTest {
    private final TestFileSystems.Directories directories = new TestFileSystems.Directories();

    @AfterEach
    void cleanUp() throws IOException {
        directories.deleteAll();
    }

    /** A fresh export-like directory on {@code kind}. */
    private Path exportOn(Kind kind) throws IOException {
        return directories.on(kind);
    }

    private static BackupStore storeIn(Path export) throws IOException {
        return BackupStore.open(export.resolve(".tcnfs").resolve("txn"));
    }

    private static Method expectedMethod(Kind kind) {
        return kind.reflinks() ? Method.CLONED : Method.COPIED;
    }

    @Test
    void rangeOnReflinkXfsIsClonedAndKeepsTheOldBytesAfterTheOriginalIsOverwritten() throws IOException {
        Path export = exportOn(Kind.XFS);
        BackupStore store = storeIn(export);
        BackupManager txn = store.forTransaction("t1");
        byte[] old = randomBytes(64 * 1024, 1);
        Path file = Files.write(export.resolve("file"), old);

        RangeBackup backup = txn.backupRange(file, 8192, 8192);

        assertThat(backup).isEqualTo(new RangeBackup(file, 8192, 8192, old.length, backup.backupFile(), Method.CLONED));
        assertThat(backup.backupFile().getParent()).isEqualTo(store.root().resolve("t1"));
        writeAt(file, 8192, randomBytes(8192, 2));
        assertThat(bytesOf(backup.backupFile(), 8192, 8192)).isEqualTo(Arrays.copyOfRange(old, 8192, 16384));
        assertThat(txn.bytesCloned()).isEqualTo(8192);
        assertThat(txn.bytesCopied()).isZero();
        assertThat(store.bytesCloned()).isEqualTo(8192);

        txn.restoreRange(backup);
        assertThat(Files.readAllBytes(file)).isEqualTo(old);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void unalignedRangeIsRecordedExactlyAndRestoredExactly(Kind kind) throws IOException {
        Path export = exportOn(kind);
        BackupStore store = storeIn(export);
        BackupManager txn = store.forTransaction("t1");
        byte[] old = randomBytes(20_000, 3);
        Path file = Files.write(export.resolve("file"), old);

        RangeBackup backup = txn.backupRange(file, 1000, 5000);

        assertThat(backup.offset()).isEqualTo(1000);
        assertThat(backup.length()).isEqualTo(5000);
        assertThat(backup.oldSize()).isEqualTo(20_000);
        assertThat(backup.method()).isEqualTo(expectedMethod(kind));
        assertThat(bytesOf(backup.backupFile(), 1000, 5000)).isEqualTo(Arrays.copyOfRange(old, 1000, 6000));
        if (kind.reflinks()) {
            assertThat(txn.bytesCloned()).as("the covering blocks [0, 8192)").isEqualTo(8192);
        } else {
            assertThat(txn.bytesCopied()).as("exactly the range").isEqualTo(5000);
        }

        // The range is overwritten; bytes next to it (in the same blocks) change too, by a later operation
        // that was already undone in this scenario, so restore must leave them alone.
        writeAt(file, 1000, randomBytes(5000, 4));
        byte[] expected = old.clone();
        writeAt(file, 999, new byte[] {42});
        writeAt(file, 6000, new byte[] {43});
        expected[999] = 42;
        expected[6000] = 43;

        txn.restoreRange(backup);
        assertThat(Files.readAllBytes(file)).isEqualTo(expected);
        txn.restoreRange(backup);
        assertThat(Files.readAllBytes(file)).as("restoring twice is harmless").isEqualTo(expected);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void largeRangeIsRestoredWithItsUnalignedEdges(Kind kind) throws IOException {
        Path export = exportOn(kind);
        BackupManager txn = storeIn(export).forTransaction("t1");
        byte[] old = randomBytes(200_000, 5);
        Path file = Files.write(export.resolve("file"), old);

        RangeBackup backup = txn.backupRange(file, 5000, 150_000);
        writeAt(file, 5000, randomBytes(150_000, 6));
        txn.restoreRange(backup);

        assertThat(Files.readAllBytes(file)).isEqualTo(old);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void rangePastTheEndOfFileRecordsTheOldSizeAndSavesNothingBeyond(Kind kind) throws IOException {
        Path export = exportOn(kind);
        BackupManager txn = storeIn(export).forTransaction("t1");
        byte[] old = randomBytes(10_000, 7);
        Path file = Files.write(export.resolve("file"), old);

        RangeBackup backup = txn.backupRange(file, 8000, 10_000);

        assertThat(backup.offset()).isEqualTo(8000);
        assertThat(backup.length()).isEqualTo(2000);
        assertThat(backup.oldSize()).isEqualTo(10_000);
        assertThat(backup.method()).isEqualTo(expectedMethod(kind));
        assertThat(Files.size(backup.backupFile())).isLessThanOrEqualTo(10_000);
        assertThat(txn.bytesCloned() + txn.bytesCopied()).isLessThanOrEqualTo(10_000);

        writeAt(file, 8000, randomBytes(10_000, 8));
        assertThat(Files.size(file)).isEqualTo(18_000);
        txn.restoreRange(backup);
        assertThat(Files.readAllBytes(file)).isEqualTo(old);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void rangeEntirelyPastTheEndOfFileKeepsOnlyTheSize(Kind kind) throws IOException {
        Path export = exportOn(kind);
        BackupManager txn = storeIn(export).forTransaction("t1");
        byte[] old = randomBytes(100, 9);
        Path file = Files.write(export.resolve("file"), old);

        RangeBackup backup = txn.backupRange(file, 100, 50);
        RangeBackup beyond = txn.backupRange(file, 5000, 50);

        assertThat(backup).isEqualTo(new RangeBackup(file, 100, 0, 100, null, Method.SIZE_ONLY));
        assertThat(beyond).isEqualTo(new RangeBackup(file, 5000, 0, 100, null, Method.SIZE_ONLY));
        assertThat(txn.bytesCloned() + txn.bytesCopied()).isZero();
        assertThat(txn.directory()).as("no backup file, not even the directory").doesNotExist();

        writeAt(file, 5000, randomBytes(50, 10));
        writeAt(file, 100, randomBytes(50, 11));
        txn.restoreRange(beyond);
        txn.restoreRange(backup);
        assertThat(Files.readAllBytes(file)).isEqualTo(old);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void truncationIsUndone(Kind kind) throws IOException {
        Path export = exportOn(kind);
        BackupManager txn = storeIn(export).forTransaction("t1");
        byte[] old = randomBytes(30_000, 12);
        Path file = Files.write(export.resolve("file"), old);

        RangeBackup backup = txn.backupRange(file, 1234, Long.MAX_VALUE);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(1234);
        }
        assertThat(backup.length()).isEqualTo(30_000 - 1234);
        txn.restoreRange(backup);

        assertThat(Files.readAllBytes(file)).isEqualTo(old);
    }

    /**
     * Random writes, appends and truncations, each after its backup, then the backups restored in reverse:
     * the file is back to its first state, on every file system, and with the same records but the method.
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void manyMutationsUndoneInReverseGiveTheOriginalBack(Kind kind) throws IOException {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Path export = exportOn(kind);
        BackupManager txn = storeIn(export).forTransaction("t1");
        byte[] old = randomBytes(3 * 4096 + random.nextInt(20_000), seed);
        Path file = Files.write(export.resolve("file"), old);
        List<RangeBackup> backups = new ArrayList<>();

        for (int step = 0; step < 40; step++) {
            long size = Files.size(file);
            if (random.nextInt(5) == 0) {
                long newSize = random.nextInt((int) size + 1);
                backups.add(txn.backupRange(file, newSize, Long.MAX_VALUE));
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    channel.truncate(newSize);
                }
            } else {
                long offset = random.nextInt((int) size + 4096);
                int length = 1 + random.nextInt(random.nextBoolean() ? 100 : 20_000);
                backups.add(txn.backupRange(file, offset, length));
                writeAt(file, offset, randomBytes(length, random.nextLong()));
            }
        }
        assertThat(backups).as("seed %d", seed).extracting(RangeBackup::method)
                .contains(expectedMethod(kind))
                .doesNotContain(kind.reflinks() ? Method.COPIED : Method.CLONED);
        assertThat(txn.makeDurable()).isGreaterThan(0);
        for (int i = backups.size() - 1; i >= 0; i--) {
            txn.restoreRange(backups.get(i));
        }

        assertThat(Files.readAllBytes(file)).as("seed %d", seed).isEqualTo(old);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void moveAsideAndMoveBackRoundTripForEveryKindOfObject(Kind kind) throws IOException {
        Path export = exportOn(kind);
        BackupStore store = storeIn(export);
        BackupManager txn = store.forTransaction("t1");
        Path dir = Files.createDirectory(export.resolve("dir"));
        Path file = Files.writeString(dir.resolve("file"), "contents");
        Path emptyDir = Files.createDirectory(dir.resolve("empty"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), Path.of("file"));

        List<MovedAside> moved = new ArrayList<>();
        for (Path victim : List.of(file, emptyDir, link)) {
            MovedAside aside = txn.moveAside(victim);
            assertThat(aside.original()).isEqualTo(victim);
            assertThat(aside.backup().getParent()).isEqualTo(txn.directory());
            assertThat(Files.exists(victim, LinkOption.NOFOLLOW_LINKS)).isFalse();
            moved.add(aside);
        }
        assertThat(Files.readString(moved.get(0).backup())).isEqualTo("contents");
        assertThat(Files.isDirectory(moved.get(1).backup(), LinkOption.NOFOLLOW_LINKS)).isTrue();
        assertThat(Files.readSymbolicLink(moved.get(2).backup())).isEqualTo(Path.of("file"));
        assertThat(txn.backups()).containsExactlyElementsOf(moved);

        for (int round = 0; round < 2; round++) { // the second round is an undo run twice: harmless
            for (int i = moved.size() - 1; i >= 0; i--) {
                txn.moveBack(moved.get(i));
            }
            assertThat(Files.readString(file)).isEqualTo("contents");
            assertThat(Files.isDirectory(emptyDir, LinkOption.NOFOLLOW_LINKS)).isTrue();
            assertThat(Files.readSymbolicLink(link)).isEqualTo(Path.of("file"));
            try (Stream<Path> left = Files.list(txn.directory())) {
                assertThat(left).isEmpty();
            }
        }
    }

    @Test
    void moveBackNeverOverwritesANameTakenSince() throws IOException {
        Path export = exportOn(Kind.XFS);
        BackupManager txn = storeIn(export).forTransaction("t1");
        Path file = Files.writeString(export.resolve("file"), "old");

        MovedAside moved = txn.moveAside(file);
        Files.writeString(file, "newcomer");

        assertThatThrownBy(() -> txn.moveBack(moved)).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readString(file)).isEqualTo("newcomer");
        assertThat(Files.readString(moved.backup())).isEqualTo("old");
    }

    @Test
    void moveBackOfAMoveThatNeverHappenedIsHarmless() throws IOException {
        Path export = exportOn(Kind.EXT4);
        BackupManager txn = storeIn(export).forTransaction("t1");
        Path file = Files.writeString(export.resolve("file"), "old");

        // A crash after the recovery record was written, before the rename.
        txn.moveBack(new MovedAside(file, txn.directory().resolve("m0")));

        assertThat(Files.readString(file)).isEqualTo("old");
    }

    @Test
    void moveBackWithNeitherNameIsNoSuchFile() throws IOException {
        Path export = exportOn(Kind.EXT4);
        BackupManager txn = storeIn(export).forTransaction("t1");

        assertThatThrownBy(() -> txn.moveBack(new MovedAside(export.resolve("gone"), txn.directory().resolve("m0"))))
                .isInstanceOf(NoSuchFileException.class);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void renameOntoAnExistingTargetIsUndoneWithTheKeptTarget(Kind kind) throws IOException {
        Path export = exportOn(kind);
        BackupManager txn = storeIn(export).forTransaction("t1");
        Path a = Files.writeString(export.resolve("a"), "A");
        Path b = Files.writeString(export.resolve("b"), "B");

        MovedAside kept = txn.keepTarget(b);
        Files.move(a, b);
        assertThat(Files.readString(b)).isEqualTo("A");

        Files.move(b, a); // the undo of the rename itself, by the transaction layer
        txn.moveBack(kept);
        txn.moveBack(kept);

        assertThat(Files.readString(a)).isEqualTo("A");
        assertThat(Files.readString(b)).isEqualTo("B");
    }

    @Test
    void moveAsideAcrossFileSystemsIsRefusedAndChangesNothing() throws IOException {
        Path xfs = exportOn(Kind.XFS);
        Path ext4 = exportOn(Kind.EXT4);
        BackupManager txn = storeIn(xfs).forTransaction("t1");
        Path victim = Files.writeString(ext4.resolve("victim"), "v");

        assertThatThrownBy(() -> txn.moveAside(victim)).isInstanceOf(AtomicMoveNotSupportedException.class);
        assertThat(Files.readString(victim)).isEqualTo("v");
        assertThat(txn.backups()).isEmpty();
    }

    @Test
    void makeDurableSyncsEveryNewFileAndTouchedDirectoryOnceInOnePass() throws IOException {
        Path export = exportOn(Kind.XFS);
        BackupManager txn = storeIn(export).forTransaction("t1");
        Path file = Files.write(export.resolve("file"), randomBytes(10_000, 13));
        Path sub = Files.createDirectory(export.resolve("sub"));
        Path victim = Files.writeString(sub.resolve("victim"), "v");

        RangeBackup first = txn.backupRange(file, 0, 100);
        txn.backupRange(file, 5000, 100);
        MovedAside moved = txn.moveAside(victim);

        // 2 backup files; the backup directory, the store's root (it gained the directory), sub.
        assertThat(txn.makeDurable()).isEqualTo(5);
        assertThat(txn.makeDurable()).as("nothing new").isZero();

        txn.moveBack(moved);
        txn.restoreRange(first);
        // the restored file; sub and the backup directory.
        assertThat(txn.makeDurable()).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void discardRemovesEverythingAndIsHarmlessTwice(Kind kind) throws IOException {
        Path export = exportOn(kind);
        BackupStore store = storeIn(export);
        BackupManager txn = store.forTransaction("t1");
        Path file = Files.write(export.resolve("file"), randomBytes(10_000, 14));
        Path dir = Files.createDirectory(export.resolve("dir"));
        Files.writeString(dir.resolve("inner"), "x");
        txn.backupRange(file, 0, 10_000);
        txn.moveAside(dir);
        txn.keepTarget(Files.writeString(export.resolve("target"), "t"));
        txn.makeDurable();
        assertThat(store.transactions()).containsExactly("t1");

        txn.discard();
        txn.discard();

        assertThat(txn.directory()).doesNotExist();
        assertThat(store.transactions()).isEmpty();
        assertThat(store.root()).isDirectory();
        assertThat(Files.readAllBytes(file)).hasSize(10_000);
        assertThatThrownBy(() -> txn.backupRange(file, 0, 1)).isInstanceOf(IllegalStateException.class);
        assertThat(txn.makeDurable()).isZero();
    }

    @Test
    void aManagerMadeAfterARestartUndoesTheBackupsOfTheEarlierOne() throws IOException {
        Path export = exportOn(Kind.XFS);
        byte[] old = randomBytes(10_000, 15);
        Path file = Files.write(export.resolve("file"), old);
        Path victim = Files.writeString(export.resolve("victim"), "v");
        BackupManager before = storeIn(export).forTransaction("t1");
        RangeBackup range = before.backupRange(file, 4000, 2000);
        MovedAside moved = before.moveAside(victim);
        before.makeDurable();
        writeAt(file, 4000, randomBytes(2000, 16));

        BackupManager after = storeIn(export).forTransaction("t1");
        Path another = Files.writeString(export.resolve("another"), "a");
        MovedAside second = after.moveAside(another);
        after.moveBack(moved);
        after.restoreRange(range);

        assertThat(second.backup()).as("earlier names are not reused").isNotIn(moved.backup(), range.backupFile());
        assertThat(Files.readAllBytes(file)).isEqualTo(old);
        assertThat(Files.readString(victim)).isEqualTo("v");
    }

    @Test
    void backupOfWhatIsNotAnExistingRegularFileIsRefused() throws IOException {
        Path export = exportOn(Kind.TMPFS);
        BackupManager txn = storeIn(export).forTransaction("t1");
        Path dir = Files.createDirectory(export.resolve("dir"));
        Path file = Files.writeString(export.resolve("file"), "f");
        Path link = Files.createSymbolicLink(export.resolve("link"), file);

        assertThatThrownBy(() -> txn.backupRange(export.resolve("missing"), 0, 1))
                .isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> txn.backupRange(dir, 0, 1)).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("not a regular file");
        assertThatThrownBy(() -> txn.backupRange(link, 0, 1)).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("not a regular file");
        assertThatThrownBy(() -> txn.backupRange(file, -1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> txn.moveAside(export.resolve("missing"))).isInstanceOf(NoSuchFileException.class);
        assertThat(txn.backups()).isEmpty();
    }

    @Test
    void restoreOfADiscardedBackupFails() throws IOException {
        Path export = exportOn(Kind.EXT4);
        BackupStore store = storeIn(export);
        Path file = Files.write(export.resolve("file"), randomBytes(5000, 17));
        BackupManager txn = store.forTransaction("t1");
        RangeBackup backup = txn.backupRange(file, 0, 5000);
        txn.discard();

        assertThatThrownBy(() -> store.forTransaction("t1").restoreRange(backup))
                .isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void countersAddUpOverTransactions() throws IOException {
        Path xfs = exportOn(Kind.XFS);
        BackupStore store = storeIn(xfs);
        Path file = Files.write(xfs.resolve("file"), randomBytes(3 * 4096, 18));

        BackupManager one = store.forTransaction("t1");
        BackupManager two = store.forTransaction("t2");
        RangeBackup backup = one.backupRange(file, 0, 4096);
        two.backupRange(file, 4096, 10);
        one.restoreRange(backup);

        assertThat(one.bytesCloned()).isEqualTo(4096);
        assertThat(two.bytesCloned()).isEqualTo(4096);
        assertThat(store.bytesCloned()).isEqualTo(8192);
        assertThat(store.bytesCopied()).isZero();
        assertThat(store.bytesRestored()).isEqualTo(4096);
        assertThat(store.transactions()).containsExactly("t1", "t2");

        Path ext4 = exportOn(Kind.EXT4);
        BackupStore copying = storeIn(ext4);
        Path other = Files.write(ext4.resolve("file"), randomBytes(3 * 4096, 19));
        copying.forTransaction("t1").backupRange(other, 100, 5000);
        copying.forTransaction("t2").backupRange(other, 100, 5000);
        assertThat(copying.bytesCopied()).isEqualTo(10_000);
        assertThat(copying.bytesCloned()).isZero();
    }

    @Test
    void transactionDirectoryNameMustBeOneName() throws IOException {
        BackupStore store = storeIn(exportOn(Kind.TMPFS));

        for (String bad : List.of("", ".", "..", "a/b", "../t1", "x\0y")) {
            assertThatThrownBy(() -> store.forTransaction(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static byte[] bytesOf(Path file, long offset, int length) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(length);
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, offset + buffer.position()) < 0) {
                    break;
                }
            }
            return Arrays.copyOf(buffer.array(), buffer.position());
        }
    }
}
