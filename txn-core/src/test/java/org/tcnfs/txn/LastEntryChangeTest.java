package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.ObjectRef;

/**
 * Which change of directory entries {@link UndoPreparer#lastEntryChange()} names as a compound's last: the commit of a
 * transaction on a file system that logs in order syncs only that directory, or only the file it created
 * (docs/durability.md, "One log force per compound"), so a mutation that changed no entry must never be taken for the
 * last change, and one that did must never be passed over.
 */
class LastEntryChangeTest {
    private static final String EXPORT = "exp";

    @TempDir
    Path base;

    private Path root;
    private UndoPreparer preparer;

    @BeforeEach
    void setUp() throws IOException {
        root = Files.createDirectories(base.resolve("export"));
        Files.createDirectories(root.resolve("d"));
        Files.createDirectories(root.resolve("e"));
        BackupStore store = BackupStore.open(root.resolve(".tcnfs").resolve("txn"));
        preparer = new UndoPreparer(root, store.forTransaction("7"), () -> false);
    }

    private static ObjectPath path(String... components) {
        return ObjectPath.of(EXPORT, components);
    }

    private void prepare(Mutation m) throws IOException {
        preparer.stepsFor(m, ObjectRef::origin);
    }

    private static Mutation.Creation openCreate(int op, ObjectPath p) {
        return new Mutation.Creation(op, ObjectRef.created(p), FileType.REGULAR, Mutation.Creation.How.OPEN_UNCHECKED);
    }

    @Test
    void aCompoundThatChangesNoEntryHasNoLastChange() throws IOException {
        Files.write(root.resolve("d").resolve("x"), new byte[1]);
        prepare(openCreate(0, path("d", "x"))); // opens the file that exists
        assertThat(preparer.lastEntryChange()).isEmpty();
    }

    @Test
    void theLastOfSeveralNewFilesIsTheLastChangeWithTheFileItCreated() throws IOException {
        for (int i = 0; i < 16; i++) {
            prepare(openCreate(3 * i, path("d", "f" + i)));
        }
        assertThat(preparer.lastEntryChange()).contains(new UndoPreparer.EntryChange(45, path("d"),
                Optional.of(path("d", "f15"))));
    }

    @Test
    void anOpenOfAnExistingFileAfterACreateLeavesTheCreateAsTheLastChange() throws IOException {
        Files.write(root.resolve("e").resolve("x"), new byte[1]);
        prepare(openCreate(1, path("d", "new")));
        prepare(openCreate(2, path("e", "x")));
        assertThat(preparer.lastEntryChange()).contains(new UndoPreparer.EntryChange(1, path("d"),
                Optional.of(path("d", "new"))));
    }

    @Test
    void aRemoveOfAFileTheCompoundCreatedIsTheLastChangeWithoutAFile() throws IOException {
        prepare(openCreate(1, path("d", "new")));
        prepare(new Mutation.Removal(2, ObjectRef.unchanged(path("e", "gone-before"))));
        prepare(new Mutation.Removal(3, ObjectRef.unchanged(path("d", "new"))));
        assertThat(preparer.lastEntryChange()).contains(new UndoPreparer.EntryChange(3, path("d"), Optional.empty()));
    }

    @Test
    void aNewDirectoryIsALastChangeWithoutAFileToSync() throws IOException {
        prepare(new Mutation.Creation(1, ObjectRef.created(path("d", "sub")), FileType.DIRECTORY,
                Mutation.Creation.How.CREATE));
        assertThat(preparer.lastEntryChange()).contains(new UndoPreparer.EntryChange(1, path("d"), Optional.empty()));
    }

    @Test
    void aRenameIsTheLastChangeOfItsTargetsDirectoryButARenameOntoAnotherLinkOfTheSameFileIsNone()
            throws IOException {
        Path x = Files.write(root.resolve("d").resolve("x"), new byte[1]);
        Files.createLink(root.resolve("e").resolve("same"), x);
        prepare(openCreate(1, path("d", "new")));
        preparer.stepsFor(new Mutation.Rename(2, ObjectRef.unchanged(path("d", "x")),
                ObjectRef.unchanged(path("e", "same"))), ref -> Optional.of(ref.path()));
        assertThat(preparer.lastEntryChange()).as("rename(2) of two links to one file changes nothing")
                .contains(new UndoPreparer.EntryChange(1, path("d"), Optional.of(path("d", "new"))));
        preparer.stepsFor(new Mutation.Rename(3, ObjectRef.unchanged(path("d", "x")),
                ObjectRef.unchanged(path("e", "y"))), ref -> Optional.of(ref.path()));
        assertThat(preparer.lastEntryChange()).contains(new UndoPreparer.EntryChange(3, path("e"), Optional.empty()));
    }
}
