package org.tcnfs.txn.undo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.proto.Attributes;
import org.tcnfs.proto.ObjectKind;
import org.tcnfs.proto.ObjectRef;
import org.tcnfs.proto.RecoveryRecord;
import org.tcnfs.proto.RelativePath;
import org.tcnfs.proto.SavedRange;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.CrashPoints;
import org.tcnfs.txn.backup.BackupManager;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.backup.MovedAside;
import org.tcnfs.txn.backup.RangeBackup;

/** Undo from the record alone, on real files (DESIGN.md step 7, "Operations and their undo"). */
class UndoExecutorTest {
    private static final String EXPORT = "exp";
    private static final long TXN = 42;
    private static final int BLOCK = 4096;

    @TempDir
    Path base;

    private Path root;
    private BackupStore store;
    private BackupManager backups;
    private final List<RecoveryRecord> saved = new ArrayList<>();
    private UndoExecutor executor;

    @BeforeEach
    void setUp() throws IOException {
        root = Files.createDirectories(base.resolve("export"));
        store = BackupStore.open(base.resolve("backups"));
        backups = store.forTransaction(Long.toString(TXN));
        executor = new UndoExecutor(root, store, CrashPoints.NONE, "mid-undo-");
    }

    // ---- helpers ------------------------------------------------------------------------------------------

    private RecoveryRecord record(UndoStep... steps) {
        RecoveryRecord.Builder b = RecoveryRecord.builder(TXN, EXPORT, Instant.parse("2026-11-22T06:00:00Z"))
                .opCount(steps.length == 0 ? 0 : steps[steps.length - 1].opIndex() + 1);
        for (UndoStep step : steps) {
            b.step(step);
        }
        return b.build();
    }

    private UndoExecutor.Result undo(RecoveryRecord record) throws IOException {
        return executor.undo(record, saved::add);
    }

    private Path file(String name, byte[] content) throws IOException {
        Path path = root.resolve(name);
        Files.createDirectories(path.getParent());
        return Files.write(path, content);
    }

    private static long ino(Path path) throws IOException {
        return UndoExecutor.fileIdOf(path).orElseThrow();
    }

    private static ObjectRef ref(String path, Path local) throws IOException {
        return new ObjectRef(RelativePath.of(path), Optional.empty(), OptionalLong.of(ino(local)));
    }

    private RelativePath inBackups(Path backup) {
        return RelativePath.of(backups.directory().relativize(backup).toString());
    }

    private static byte[] pattern(int length, int seed) {
        byte[] data = new byte[length];
        for (int i = 0; i < length; i++) {
            data[i] = (byte) (i * 31 + seed);
        }
        return data;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void overwrite(Path file, long offset, byte[] data) throws IOException {
        try (var ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(data), offset);
        }
    }

    /** Compares contents by size and first differing offset (arrays of KiBs make unreadable failures). */
    private static void assertSameBytes(Path file, byte[] expected) throws IOException {
        byte[] actual = Files.readAllBytes(file);
        assertThat(actual.length).as("size of %s", file.getFileName()).isEqualTo(expected.length);
        assertThat(Arrays.mismatch(actual, expected)).as("first differing offset in %s", file.getFileName())
                .isEqualTo(-1);
    }

    private static int mode(Path path) throws IOException {
        return (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777;
    }

    /** Everything about the export tree that an undo may change, except times. */
    private Map<String, String> tree() throws IOException {
        Map<String, String> result = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                String kind = Files.isSymbolicLink(p) ? "link->" + Files.readSymbolicLink(p)
                        : Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? "dir"
                        : "file:" + Arrays.hashCode(Files.readAllBytes(p)) + ":" + Files.size(p);
                result.put(root.relativize(p).toString(), kind + " ino=" + ino(p)
                        + " mode=" + Integer.toOctalString(mode(p))
                        + " uid=" + Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS)
                        + " gid=" + Files.getAttribute(p, "unix:gid", LinkOption.NOFOLLOW_LINKS)
                        + " nlink=" + Files.getAttribute(p, "unix:nlink", LinkOption.NOFOLLOW_LINKS));
            }
        }
        return result;
    }

    // ---- one step kind at a time ----------------------------------------------------------------------------

    @Test
    void restoreRangesPutsBackInlineAndBackupFileRangesAndTheOldSize() throws IOException {
        byte[] original = pattern(3 * BLOCK, 7);
        Path f = file("f", original);
        RangeBackup saved = backups.backupRange(f, 4100, 4100);
        backups.makeDurable();
        UndoStep step = new UndoStep.RestoreRanges(0, ref("f", f), original.length, List.of(
                SavedRange.inline(0, Arrays.copyOfRange(original, 0, 10)),
                SavedRange.inBackup(4100, 4100, inBackups(saved.backupFile()), 4100)));
        overwrite(f, 0, pattern(10, 99));
        overwrite(f, 4100, pattern(4100, 55));
        overwrite(f, 5 * BLOCK, pattern(100, 1));

        UndoExecutor.Result result = undo(record(step));

        assertSameBytes(f, original);
        assertThat(result).isEqualTo(new UndoExecutor.Result(1, 0));
    }

    @Test
    void restoreRangesOfAFileThatShrankBringsTheCutBytesBack() throws IOException {
        byte[] original = pattern(2 * BLOCK, 3);
        Path f = file("f", original);
        RangeBackup saved = backups.backupRange(f, 100, 2 * BLOCK - 100);
        UndoStep step = new UndoStep.RestoreRanges(0, ref("f", f), original.length,
                List.of(SavedRange.inBackup(100, 2 * BLOCK - 100, inBackups(saved.backupFile()), 100)));
        try (var ch = java.nio.channels.FileChannel.open(f, java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(100);
        }

        undo(record(step));

        assertSameBytes(f, original);
    }

    @Test
    void restoreRangesLeavesAnotherFileAtThePathAlone() throws IOException {
        Path f = file("f", pattern(100, 1));
        UndoStep step = new UndoStep.RestoreRanges(0, ref("f", f), 100,
                List.of(SavedRange.inline(0, pattern(10, 2))));
        Files.move(f, root.resolve("kept-so-its-inode-is-not-reused"));
        byte[] replacement = pattern(50, 9);
        file("f", replacement);

        UndoExecutor.Result result = undo(record(step));

        assertSameBytes(f, replacement);
        assertThat(result.skipped()).isEqualTo(1);
    }

    @Test
    void restoreSizeShrinksAGrownFileAndGrowsACutOne() throws IOException {
        Path grown = file("grown", pattern(100, 1));
        Path cut = file("cut", pattern(100, 2));
        RecoveryRecord record = record(new UndoStep.RestoreSize(0, ref("grown", grown), 100),
                new UndoStep.RestoreSize(1, ref("cut", cut), 100));
        Files.write(grown, pattern(300, 1));
        try (var ch = java.nio.channels.FileChannel.open(cut, java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(40);
        }

        undo(record);

        assertThat(Files.readAllBytes(grown)).isEqualTo(pattern(100, 1));
        byte[] expected = new byte[100];
        System.arraycopy(pattern(100, 2), 0, expected, 0, 40);
        assertThat(Files.readAllBytes(cut)).isEqualTo(expected);
    }

    @Test
    void restoreAttributesSetsBackModeOwnerGroupAndTimes() throws IOException {
        Path f = file("f", utf8("x"));
        Path d = Files.createDirectory(root.resolve("d"));
        Instant mtime = Instant.parse("2020-01-02T03:04:05.123456789Z");
        Instant atime = Instant.parse("2021-06-07T08:09:10Z");
        Attributes old = Attributes.NONE.withMode(0640).withUid(1234).withGid(5678).withMtime(mtime)
                .withAtime(atime);
        RecoveryRecord record = record(new UndoStep.RestoreAttributes(0, ref("f", f), old),
                new UndoStep.RestoreAttributes(1, ref("d", d), Attributes.NONE.withMode(0705)));
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setAttribute(f, "unix:uid", 0);
        Files.setAttribute(f, "unix:gid", 0);
        Files.setLastModifiedTime(f, FileTime.from(Instant.now()));
        Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwx------"));

        undo(record);

        assertThat(mode(f)).isEqualTo(0640);
        assertThat(Files.getAttribute(f, "unix:uid")).isEqualTo(1234);
        assertThat(Files.getAttribute(f, "unix:gid")).isEqualTo(5678);
        assertThat(Files.getLastModifiedTime(f).toInstant()).isEqualTo(mtime);
        assertThat(Files.readAttributes(f, java.nio.file.attribute.BasicFileAttributes.class).lastAccessTime()
                .toInstant()).isEqualTo(atime);
        assertThat(mode(d)).isEqualTo(0705);
    }

    @Test
    void restoreAttributesOfOnlyTheModeLeavesOwnerAndTimesAlone() throws IOException {
        Path f = file("f", utf8("x"));
        Files.setAttribute(f, "unix:uid", 77);
        FileTime mtime = FileTime.from(Instant.parse("2022-02-02T02:02:02Z"));
        Files.setLastModifiedTime(f, mtime);
        RecoveryRecord record = record(new UndoStep.RestoreAttributes(0, ref("f", f),
                Attributes.NONE.withMode(0600)));
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));

        undo(record);

        assertThat(mode(f)).isEqualTo(0600);
        assertThat(Files.getAttribute(f, "unix:uid")).isEqualTo(77);
        assertThat(Files.getLastModifiedTime(f)).isEqualTo(mtime);
    }

    @Test
    void removeCreatedRemovesTheCreatedFileDirectoryAndSymlink() throws IOException {
        RecoveryRecord record = record(
                new UndoStep.RemoveCreated(0, ObjectRef.at(RelativePath.of("d")), ObjectKind.DIRECTORY),
                new UndoStep.RemoveCreated(1, ObjectRef.at(RelativePath.of("d", "f")), ObjectKind.REGULAR),
                new UndoStep.RemoveCreated(2, ObjectRef.at(RelativePath.of("l")), ObjectKind.SYMLINK));
        Files.createDirectory(root.resolve("d"));
        file("d/f", utf8("new"));
        Files.createSymbolicLink(root.resolve("l"), Path.of("d/f"));

        UndoExecutor.Result result = undo(record);

        assertThat(root).isEmptyDirectory();
        assertThat(result).isEqualTo(new UndoExecutor.Result(3, 0));
    }

    @Test
    void removeCreatedLeavesAnObjectOfAnotherKindOrIdentityAlone() throws IOException {
        Files.createDirectory(root.resolve("a"));
        Path b = file("b", utf8("someone else's"));
        Path c = file("c", utf8("c"));
        long cIno = ino(c);
        RecoveryRecord record = record(
                new UndoStep.RemoveCreated(0, ObjectRef.at(RelativePath.of("a")), ObjectKind.REGULAR),
                new UndoStep.RemoveCreated(1, ObjectRef.at(RelativePath.of("b")), ObjectKind.SYMLINK),
                new UndoStep.RemoveCreated(2, new ObjectRef(RelativePath.of("c"), Optional.empty(),
                        OptionalLong.of(cIno + 1_000_000)), ObjectKind.REGULAR));

        UndoExecutor.Result result = undo(record);

        assertThat(root.resolve("a")).isDirectory();
        assertThat(b).hasContent("someone else's");
        assertThat(c).exists();
        assertThat(result).isEqualTo(new UndoExecutor.Result(3, 3));
    }

    @Test
    void removeCreatedOfANameBelowARegularFileFindsNothingAndFailsNot() throws IOException {
        // a compound that made "c" a file and then failed to create the directory "c/c" (OperationFuzzIT)
        Path c = file("c", utf8("c"));
        RecoveryRecord record = record(
                new UndoStep.RemoveCreated(0, ObjectRef.at(RelativePath.of("c", "c")), ObjectKind.DIRECTORY));

        UndoExecutor.Result result = undo(record);

        assertThat(c).hasContent("c");
        assertThat(result).isEqualTo(new UndoExecutor.Result(1, 1));
    }

    @Test
    void unlinkLinkRemovesOnlyTheNewName() throws IOException {
        Path f = file("f", utf8("data"));
        Path g = Files.createLink(root.resolve("g"), f);
        RecoveryRecord record = record(new UndoStep.UnlinkLink(0, ref("g", g)));

        undo(record);

        assertThat(g).doesNotExist();
        assertThat(f).hasContent("data");
        assertThat(Files.getAttribute(f, "unix:nlink")).isEqualTo(1);
    }

    @Test
    void unlinkLinkLeavesANameThatNamesAnotherObjectAlone() throws IOException {
        Path f = file("f", utf8("data"));
        Path g = Files.createLink(root.resolve("g"), f);
        RecoveryRecord record = record(new UndoStep.UnlinkLink(0, ref("g", g)));
        Files.delete(g);
        file("g", utf8("other"));

        undo(record);

        assertThat(g).hasContent("other");
    }

    @Test
    void moveBackReturnsTheRemovedFileWithItsInode() throws IOException {
        Path f = file("f", utf8("victim"));
        long inode = ino(f);
        MovedAside moved = backups.moveAside(f);
        RecoveryRecord record = record(
                new UndoStep.MoveBack(0, ref("f", moved.backup()).withFileId(inode), ObjectKind.REGULAR,
                        inBackups(moved.backup())));

        undo(record);

        assertThat(f).hasContent("victim");
        assertThat(ino(f)).isEqualTo(inode);
        assertThat(moved.backup()).doesNotExist();
    }

    @Test
    void moveBackLeavesANameTakenSinceAlone() throws IOException {
        Path f = file("f", utf8("victim"));
        MovedAside moved = backups.moveAside(f);
        RecoveryRecord record = record(new UndoStep.MoveBack(0, ObjectRef.at(RelativePath.of("f")),
                ObjectKind.REGULAR, inBackups(moved.backup())));
        file("f", utf8("newcomer"));

        UndoExecutor.Result result = undo(record);

        assertThat(f).hasContent("newcomer");
        assertThat(moved.backup()).hasContent("victim");
        assertThat(result.skipped()).isEqualTo(1);
    }

    @Test
    void renameBackWithoutAKeptTargetRestoresTheOldName() throws IOException {
        Path a = file("d/a", utf8("moved"));
        Files.createDirectory(root.resolve("e"));
        long inode = ino(a);
        RecoveryRecord record = record(new UndoStep.RenameBack(0, ref("d/a", a),
                ObjectRef.at(RelativePath.of("e", "b")), Optional.empty()));
        Files.move(a, root.resolve("e/b"), StandardCopyOption.ATOMIC_MOVE);

        undo(record);

        assertThat(a).hasContent("moved");
        assertThat(ino(a)).isEqualTo(inode);
        assertThat(root.resolve("e/b")).doesNotExist();
    }

    @Test
    void renameBackWithAKeptTargetRestoresBothNames() throws IOException {
        Path a = file("a", utf8("source"));
        Path b = file("b", utf8("target"));
        long aIno = ino(a);
        long bIno = ino(b);
        ObjectRef from = ref("a", a);
        ObjectRef to = ref("b", b);
        MovedAside kept = backups.keepTarget(b);
        RecoveryRecord record = record(new UndoStep.RenameBack(0, from, to, Optional.of(inBackups(kept.backup()))));
        Files.move(a, b, StandardCopyOption.ATOMIC_MOVE);

        undo(record);

        assertThat(a).hasContent("source");
        assertThat(b).hasContent("target");
        assertThat(ino(a)).isEqualTo(aIno);
        assertThat(ino(b)).isEqualTo(bIno);
        assertThat(kept.backup()).doesNotExist();
    }

    /** A power cut kept a rename's new entry but not its old entry's removal (strict POSIX, docs/durability.md). */
    @Test
    void renameBackDropsTheSecondLinkAHalfDurableRenameLeft() throws IOException {
        Path a = file("d/a", utf8("moved"));
        Files.createDirectory(root.resolve("e"));
        long inode = ino(a);
        RecoveryRecord record = record(new UndoStep.RenameBack(0, ref("d/a", a),
                ObjectRef.at(RelativePath.of("e", "b")), Optional.empty()));
        Files.createLink(root.resolve("e/b"), a);

        UndoExecutor.Result result = undo(record);

        assertThat(a).hasContent("moved");
        assertThat(ino(a)).isEqualTo(inode);
        assertThat(root.resolve("e/b")).doesNotExist();
        assertThat(result.skipped()).isZero();
    }

    @Test
    void renameBackDropsTheSecondLinkAndPutsTheKeptTargetBack() throws IOException {
        Path a = file("a", utf8("source"));
        Path b = file("b", utf8("target"));
        long bIno = ino(b);
        ObjectRef to = ref("b", b);
        MovedAside kept = backups.keepTarget(b);
        RecoveryRecord record = record(new UndoStep.RenameBack(0, ref("a", a), to,
                Optional.of(inBackups(kept.backup()))));
        Files.createLink(root.resolve("b.tmp"), a);
        Files.move(root.resolve("b.tmp"), b, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

        undo(record);

        assertThat(a).hasContent("source");
        assertThat(b).hasContent("target");
        assertThat(ino(b)).isEqualTo(bIno);
    }

    @Test
    void renameBackLeavesAnotherObjectAtTheNewNameAlone() throws IOException {
        Path a = file("a", utf8("source"));
        RecoveryRecord record = record(new UndoStep.RenameBack(0, ref("a", a),
                ObjectRef.at(RelativePath.of("b")), Optional.empty()));
        Files.move(a, root.resolve("b"), StandardCopyOption.ATOMIC_MOVE);
        Files.move(root.resolve("b"), root.resolve("kept-so-its-inode-is-not-reused"));
        Path b = file("b", utf8("stranger"));

        UndoExecutor.Result result = undo(record);

        assertThat(a).doesNotExist();
        assertThat(b).hasContent("stranger");
        assertThat(result.skipped()).isEqualTo(1);
    }

    @Test
    void moveBackOfADirectoryReplacesTheEmptyStandInLeftAtItsName() throws IOException {
        Path d = Files.createDirectory(root.resolve("d"));
        Files.createFile(d.resolve("inside"));
        long ino = ino(d);
        RecoveryRecord record = record(new UndoStep.MoveBack(0, ref("d", d), ObjectKind.DIRECTORY,
                RelativePath.of("rm-0")));
        Files.createDirectories(backups.directory());
        Files.move(d, backups.directory().resolve("rm-0"));
        Files.createDirectory(d);

        undo(record);

        assertThat(ino(d)).isEqualTo(ino);
        assertThat(d.resolve("inside")).exists();
        assertThat(backups.directory().resolve("rm-0")).doesNotExist();
    }

    @Test
    void moveBackOfADirectoryLeavesANonEmptyDirectoryAtItsName() throws IOException {
        Path d = Files.createDirectory(root.resolve("d"));
        RecoveryRecord record = record(new UndoStep.MoveBack(0, ref("d", d), ObjectKind.DIRECTORY,
                RelativePath.of("rm-0")));
        Files.createDirectories(backups.directory());
        Files.move(d, backups.directory().resolve("rm-0"));
        Files.createDirectory(d);
        Files.createFile(d.resolve("someone-elses"));

        UndoExecutor.Result result = undo(record);

        assertThat(d.resolve("someone-elses")).exists();
        assertThat(backups.directory().resolve("rm-0")).isDirectory();
        assertThat(result.skipped()).isEqualTo(1);
    }

    // ---- idempotence -------------------------------------------------------------------------------------

    /** A compound touching every kind of step: the record, made before the operations ran. */
    private RecoveryRecord everyKindPrepared() throws IOException {
        byte[] data = pattern(2 * BLOCK, 11);
        Path w = file("w", data);
        RangeBackup range = backups.backupRange(w, 0, BLOCK);
        Path s = file("s", pattern(500, 1));
        Path m = file("m", utf8("mode"));
        Files.setPosixFilePermissions(m, PosixFilePermissions.fromString("rw-r-----"));
        Path l = file("l", utf8("linked"));
        Path r = file("r", utf8("renamed"));
        Path v = file("v", utf8("victim"));
        Path t = file("t", utf8("kept target"));
        Path u = file("u", utf8("rename over t"));
        Path e = Files.createDirectory(root.resolve("empty"));
        Files.setPosixFilePermissions(e, PosixFilePermissions.fromString("rwxr-xr-x"));
        return record(
                new UndoStep.RestoreRanges(0, ref("w", w), data.length,
                        List.of(SavedRange.inBackup(0, BLOCK, inBackups(range.backupFile()), 0))),
                new UndoStep.RestoreSize(1, ref("s", s), 500),
                new UndoStep.RestoreAttributes(2, ref("m", m), Attributes.NONE.withMode(0640)),
                new UndoStep.RemoveCreated(3, ObjectRef.at(RelativePath.of("new")), ObjectKind.DIRECTORY),
                new UndoStep.RemoveCreated(4, ObjectRef.at(RelativePath.of("new", "f")), ObjectKind.REGULAR),
                new UndoStep.UnlinkLink(5, new ObjectRef(RelativePath.of("l2"), Optional.empty(),
                        OptionalLong.of(ino(l)))),
                new UndoStep.RenameBack(6, ref("r", r), ObjectRef.at(RelativePath.of("r2")), Optional.empty()),
                new UndoStep.MoveBack(7, ref("v", v), ObjectKind.REGULAR, RelativePath.of("m-victim")),
                new UndoStep.RenameBack(8, ref("u", u), ref("t", t), Optional.of(RelativePath.of("t-kept"))),
                new UndoStep.MoveBack(9, ref("empty", e), ObjectKind.DIRECTORY, RelativePath.of("empty-kept")));
    }

    /** Runs the operations of {@link #everyKindPrepared()}. */
    private void runEveryKind() throws IOException {
        overwrite(root.resolve("w"), 0, pattern(BLOCK, 200));
        Files.write(root.resolve("s"), pattern(900, 1));
        Files.setPosixFilePermissions(root.resolve("m"), PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.createDirectory(root.resolve("new"));
        file("new/f", utf8("created"));
        Files.createLink(root.resolve("l2"), root.resolve("l"));
        Files.move(root.resolve("r"), root.resolve("r2"));
        Files.createDirectories(backups.directory());
        Files.move(root.resolve("v"), backups.directory().resolve("m-victim"));
        Files.move(root.resolve("t"), backups.directory().resolve("t-kept"));
        Files.move(root.resolve("u"), root.resolve("t"));
        Files.move(root.resolve("empty"), backups.directory().resolve("empty-kept"));
    }

    @Test
    void undoOfEveryKindGivesBackThePreCompoundTree() throws IOException {
        RecoveryRecord record = everyKindPrepared();
        Map<String, String> before = tree();
        runEveryKind();
        assertThat(tree()).isNotEqualTo(before);

        undo(record);

        assertThat(tree()).isEqualTo(before);
    }

    @Test
    void runningTheSameRecordTwiceChangesNothingFurther() throws IOException {
        RecoveryRecord record = everyKindPrepared();
        runEveryKind();
        undo(record);
        Map<String, String> once = tree();
        Map<String, FileTime> times = mtimes();

        undo(record);

        assertThat(tree()).isEqualTo(once);
        assertThat(mtimes()).isEqualTo(times);
    }

    private Map<String, FileTime> mtimes() throws IOException {
        Map<String, FileTime> result = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && !p.equals(root)) {
                    result.put(root.relativize(p).toString(), Files.getLastModifiedTime(p));
                }
            }
        }
        return result;
    }

    @Test
    void runningARecordWhoseOperationsNeverRanChangesNothing() throws IOException {
        RecoveryRecord record = everyKindPrepared();
        Map<String, String> before = tree();

        UndoExecutor.Result result = undo(record);

        assertThat(tree()).isEqualTo(before);
        assertThat(result.undone()).isEqualTo(10);
    }

    // ---- progress --------------------------------------------------------------------------------------------

    /** REMOVE a, then CREATE a (new file, identity unknown when prepared): the record and the tree after. */
    private RecoveryRecord removeThenCreateRan() throws IOException {
        Path a = file("a", utf8("original"));
        ObjectRef original = ref("a", a);
        MovedAside moved = backups.moveAside(a);
        file("a", utf8("created"));
        return record(
                new UndoStep.MoveBack(0, original, ObjectKind.REGULAR, inBackups(moved.backup())),
                new UndoStep.RemoveCreated(1, ObjectRef.at(RelativePath.of("a")), ObjectKind.REGULAR));
    }

    @Test
    void stepsReusingANameSaveProgressAfterTheLaterOne() throws IOException {
        RecoveryRecord record = removeThenCreateRan();

        undo(record);

        assertThat(root.resolve("a")).hasContent("original");
        assertThat(saved).singleElement().satisfies(r -> {
            assertThat(r.undoneSteps()).isEqualTo(1);
            assertThat(r.txnId()).isEqualTo(TXN);
            assertThat(r.steps()).isEqualTo(record.steps());
        });
    }

    @Test
    void stepsOfDistinctNamesSaveNoProgress() throws IOException {
        RecoveryRecord record = everyKindPrepared();
        runEveryKind();

        undo(record);

        assertThat(saved).isEmpty();
    }

    @Test
    void resumingFromSavedProgressAfterACrashGivesTheOriginalBack() throws IOException {
        RecoveryRecord record = removeThenCreateRan();
        UndoExecutor.Progress crashAfterSave = r -> {
            saved.add(r);
            throw new IOException("crash after the progress is durable");
        };
        assertThatThrownBy(() -> executor.undo(record, crashAfterSave)).isInstanceOf(IOException.class);
        assertThat(root.resolve("a")).doesNotExist();

        UndoExecutor.Result result = undo(saved.get(0));

        assertThat(root.resolve("a")).hasContent("original");
        assertThat(result).isEqualTo(new UndoExecutor.Result(1, 0));
    }

    @Test
    void resumingFromSavedProgressAfterTheUndoFinishedKeepsTheRestoredOriginal() throws IOException {
        RecoveryRecord record = removeThenCreateRan();
        undo(record);
        RecoveryRecord progress = saved.get(saved.size() - 1);

        UndoExecutor.Result result = undo(progress);

        assertThat(root.resolve("a")).hasContent("original");
        assertThat(result).isEqualTo(new UndoExecutor.Result(1, 1));
    }

    @Test
    void aRecordFullyUndoneHasNothingLeftToDo() throws IOException {
        RecoveryRecord record = removeThenCreateRan();

        UndoExecutor.Result result = undo(record.withUndoneSteps(2));

        assertThat(root.resolve("a")).hasContent("created");
        assertThat(result).isEqualTo(new UndoExecutor.Result(0, 0));
    }
}
