package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.proto.RecoveryRecord;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.ObjectRef;
import org.tcnfs.txn.undo.UndoExecutor;

/**
 * What the undo of a rolled-back compound puts back besides names and data: the access and modification
 * times of the directories whose entries it changed and of the objects it removed or replaced (issue 13
 * item 4), whichever way the steps were prepared; the steps travel in the record, so recovery does the same.
 */
class UndoPreparerTest {
    private static final String EXPORT = "exp";
    private static final FileTime OLD_MTIME = FileTime.from(Instant.parse("2020-01-02T03:04:05.123456789Z"));
    private static final FileTime OLD_ATIME = FileTime.from(Instant.parse("2021-06-07T08:09:10.987654321Z"));

    @TempDir
    Path base;

    private Path root;
    private BackupStore store;
    private UndoPreparer preparer;
    private final List<UndoStep> steps = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        root = Files.createDirectories(base.resolve("export"));
        store = BackupStore.open(root.resolve(".tcnfs").resolve("txn"));
        preparer = new UndoPreparer(root, store.forTransaction("7"), () -> false);
    }

    private static ObjectPath path(String... components) {
        return ObjectPath.of(EXPORT, components);
    }

    private Path aged(Path p) throws IOException {
        Files.getFileAttributeView(p, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .setTimes(OLD_MTIME, OLD_ATIME, null);
        return p;
    }

    private static BasicFileAttributes times(Path p) throws IOException {
        return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }

    private void prepare(Mutation m) throws IOException {
        steps.addAll(preparer.stepsFor(m, ObjectRef::origin));
        preparer.swapBefore(m.opIndex());
    }

    private void undo() throws IOException {
        RecoveryRecord.Builder b = RecoveryRecord.builder(7, EXPORT, Instant.now())
                .backupDirectory(root.relativize(store.forTransaction("7").directory()).toString())
                .opCount(steps.isEmpty() ? 0 : steps.get(steps.size() - 1).opIndex() + 1);
        steps.forEach(b::step);
        new UndoExecutor(root, store, CrashPoints.NONE, "mid-undo-").undo(b.build(), r -> { });
    }

    @Test
    void undoOfRemoveRestoresTheParentsMtimeAndTheRemovedFilesAtime() throws IOException {
        Path d = Files.createDirectories(root.resolve("d"));
        Path x = aged(Files.write(d.resolve("x"), new byte[] {1, 2, 3}));
        aged(d);

        prepare(new Mutation.Removal(0, ObjectRef.unchanged(path("d", "x"))));
        Files.delete(x);
        Files.write(d.resolve("other"), new byte[1]);
        Files.delete(d.resolve("other"));
        undo();

        assertThat(times(d).lastModifiedTime()).isEqualTo(OLD_MTIME);
        assertThat(times(d).lastAccessTime()).isEqualTo(OLD_ATIME);
        assertThat(times(x).lastAccessTime()).isEqualTo(OLD_ATIME);
        assertThat(times(x).lastModifiedTime()).isEqualTo(OLD_MTIME);
        // (read last: on a relatime mount the read moves the atime, which is older than the ctime undo moved)
        assertThat(Files.readAllBytes(x)).containsExactly(1, 2, 3);
    }

    @Test
    void undoOfCreateLinkAndRenameRestoresEveryParentsTimes() throws IOException {
        Path d = Files.createDirectories(root.resolve("d"));
        Path e = Files.createDirectories(root.resolve("e"));
        Path y = aged(Files.write(d.resolve("y"), new byte[] {9}));
        Path t = aged(Files.write(e.resolve("t"), new byte[] {8}));
        aged(d);
        aged(e);
        aged(root);

        prepare(new Mutation.Creation(0, ObjectRef.created(path("d", "new")), FileType.DIRECTORY,
                Mutation.Creation.How.CREATE));
        Files.createDirectory(d.resolve("new"));
        prepare(new Mutation.HardLink(1, ObjectRef.unchanged(path("d", "y")), ObjectRef.created(path("y-link"))));
        Files.createLink(root.resolve("y-link"), y);
        // per-operation preparation, as for every compound that renames
        steps.addAll(preparer.stepsFor(new Mutation.Rename(2, ObjectRef.unchanged(path("d", "y")),
                ObjectRef.unchanged(path("e", "t"))), ref -> java.util.Optional.of(ref.path())));
        preparer.swapBefore(2);
        Files.move(y, t, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        undo();

        for (Path dir : List.of(d, e, root)) {
            assertThat(times(dir).lastModifiedTime()).as("mtime of %s", dir).isEqualTo(OLD_MTIME);
        }
        assertThat(times(t).lastAccessTime()).as("atime of the replaced target").isEqualTo(OLD_ATIME);
        assertThat(Files.exists(d.resolve("new"))).isFalse();
        assertThat(Files.exists(root.resolve("y-link"))).isFalse();
        assertThat(Files.readAllBytes(y)).containsExactly(9);
        assertThat(Files.readAllBytes(t)).containsExactly(8);
    }

    @Test
    void aRenameBetweenDirectoriesMarksOnlyTheTargetsDirectoryForTheFirstSyncs() throws IOException {
        Path d = Files.createDirectories(root.resolve("d"));
        Files.createDirectories(root.resolve("e"));
        Files.write(d.resolve("y"), new byte[] {9});
        Files.write(d.resolve("z"), new byte[] {8});

        steps.addAll(preparer.stepsFor(new Mutation.Rename(0, ObjectRef.unchanged(path("d", "y")),
                ObjectRef.unchanged(path("e", "y"))), ref -> java.util.Optional.of(ref.path())));
        steps.addAll(preparer.stepsFor(new Mutation.Rename(1, ObjectRef.unchanged(path("d", "z")),
                ObjectRef.unchanged(path("d", "z2"))), ref -> java.util.Optional.of(ref.path())));

        assertThat(preparer.touchedDirs()).containsExactlyInAnyOrder(path("d"), path("e"));
        assertThat(preparer.renameTargetDirs()).containsExactly(path("e"));
    }

    @Test
    void theDeviceOfEachDirectoryWhoseEntriesChangeIsTheOneItsPreparationReadAndARenameForgetsIt() throws IOException {
        Path d = Files.createDirectories(root.resolve("d"));
        Files.write(d.resolve("y"), new byte[] {9});
        long dev = ((Number) Files.getAttribute(d, "unix:dev", LinkOption.NOFOLLOW_LINKS)).longValue();

        prepare(new Mutation.Removal(0, ObjectRef.unchanged(path("d", "y"))));
        prepare(new Mutation.Creation(1, ObjectRef.created(path("d", "n")), FileType.DIRECTORY,
                Mutation.Creation.How.CREATE));
        prepare(new Mutation.Creation(2, ObjectRef.created(path("d", "n", "f")), FileType.REGULAR,
                Mutation.Creation.How.CREATE));

        assertThat(preparer.deviceOf(path("d"))).hasValue(dev);
        assertThat(preparer.deviceOf(path("d", "n"))).as("a directory the compound made: its parent's").hasValue(dev);
        assertThat(preparer.deviceOf(path("e"))).as("a directory no preparation looked at").isEmpty();

        Files.createDirectory(d.resolve("n"));
        steps.addAll(preparer.stepsFor(new Mutation.Rename(3, ObjectRef.unchanged(path("d", "n")),
                ObjectRef.unchanged(path("d", "m"))), ref -> java.util.Optional.of(ref.path())));
        assertThat(preparer.deviceOf(path("d", "n"))).as("moved by a RENAME: the commit looks again").isEmpty();
        assertThat(preparer.deviceOf(path("d", "m"))).isEmpty();
    }

    /** rename(2) of one link of a file onto another does nothing (RFC 8881 18.26.4): so undo must not either. */
    @Test
    void undoOfARenameOntoAnotherLinkOfTheSameFileKeepsBothLinks() throws IOException {
        Path d = Files.createDirectories(root.resolve("d"));
        Path e = Files.createDirectories(root.resolve("e"));
        Path y = Files.write(d.resolve("y"), new byte[] {9});
        Files.createLink(e.resolve("y"), y);

        steps.addAll(preparer.stepsFor(new Mutation.Rename(0, ObjectRef.unchanged(path("d", "y")),
                ObjectRef.unchanged(path("e", "y"))), ref -> java.util.Optional.of(ref.path())));
        undo();

        assertThat(Files.readAllBytes(y)).containsExactly(9);
        assertThat(Files.readAllBytes(e.resolve("y"))).containsExactly(9);
    }

    @Test
    void noTimesAreSavedForADirectoryTheCompoundCreated() throws IOException {
        aged(root);
        prepare(new Mutation.Creation(0, ObjectRef.created(path("n")), FileType.DIRECTORY,
                Mutation.Creation.How.CREATE));
        Files.createDirectory(root.resolve("n"));
        prepare(new Mutation.Creation(1, ObjectRef.created(path("n", "m")), FileType.DIRECTORY,
                Mutation.Creation.How.CREATE));

        assertThat(steps).filteredOn(s -> s instanceof UndoStep.RestoreAttributes).hasSize(1)
                .allMatch(s -> ((UndoStep.RestoreAttributes) s).target().path().components().isEmpty());
    }

    @Test
    void writeThroughTheHandleOfAFileTheCompoundRemovedIsUndoneBeforeTheFileIsMovedBack() throws IOException {
        Path d = Files.createDirectories(root.resolve("d"));
        Path f = Files.write(d.resolve("f"), "0123456789".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Path kept = Files.createDirectories(base.resolve("kept")).resolve("open-fd");
        Files.createLink(kept, f); // what a client's open holds: the inode outlives its name

        prepare(new Mutation.Removal(0, ObjectRef.unchanged(path("d", "f"))));
        Files.delete(f);
        prepare(new Mutation.Write(1, ObjectRef.unchanged(path("d", "f")), 0, 15));
        Files.write(kept, "XXXXXXXXXXXXXXX".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        undo();

        assertThat(Files.readString(f)).isEqualTo("0123456789");
    }

    @Test
    void aFileItsRemoveMovesIntoTheBackupDirectoryIsNeitherLinkedNorTimedAndComesBackAsTheSameFile()
            throws IOException {
        Path d = Files.createDirectories(root.resolve("d"));
        Path x = aged(Files.write(d.resolve("x"), new byte[] {1, 2, 3}));
        long ino = UndoExecutor.fileIdOf(x).getAsLong();
        UndoPreparer intoPlace = new UndoPreparer(root, store.forTransaction("7"), () -> true);

        steps.addAll(intoPlace.stepsFor(new Mutation.Removal(0, ObjectRef.unchanged(path("d", "x"))),
                ObjectRef::origin));
        // prepared up front, before the REMOVE ran: a WRITE through the removed file's open handle reads it at its name
        steps.addAll(intoPlace.stepsFor(new Mutation.Write(1, ObjectRef.unchanged(path("d", "x")), 0, 2),
                ObjectRef::origin));
        assertThat(Files.getAttribute(x, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).isEqualTo(1);
        assertThat(steps).filteredOn(s -> s instanceof UndoStep.RestoreAttributes r
                && r.target().path().components().equals(List.of("d", "x"))).isEmpty();
        List<UndoPreparer.Swap> swaps = intoPlace.takeSwaps(0);
        assertThat(swaps).hasSize(1);
        Path kept = swaps.get(0).kept();
        Files.move(x, kept, StandardCopyOption.ATOMIC_MOVE); // the REMOVE
        Files.write(kept, new byte[] {8, 9, 3}); // the WRITE
        undo();

        assertThat(UndoExecutor.fileIdOf(x)).hasValue(ino);
        assertThat(kept).doesNotExist();
        assertThat(times(x).lastModifiedTime()).isEqualTo(OLD_MTIME);
        assertThat(Files.readAllBytes(x)).containsExactly(1, 2, 3);
    }

    @Test
    void theUndoOfAFileRemoveThatNeverRanLeavesTheFileAtItsName() throws IOException {
        Path d = Files.createDirectories(root.resolve("d"));
        Path x = Files.write(d.resolve("x"), new byte[] {1, 2, 3});
        UndoPreparer intoPlace = new UndoPreparer(root, store.forTransaction("7"), () -> true);

        steps.addAll(intoPlace.stepsFor(new Mutation.Removal(0, ObjectRef.unchanged(path("d", "x"))),
                ObjectRef::origin));
        undo(); // a crash between the record and the REMOVE

        assertThat(Files.readAllBytes(x)).containsExactly(1, 2, 3);
        assertThat(Files.getAttribute(x, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).isEqualTo(1);
    }
}
