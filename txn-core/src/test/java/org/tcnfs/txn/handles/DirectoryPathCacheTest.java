package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.vfs.FileType;

/**
 * The table's cache of directory paths (which spares a LOOKUP the walk up its directory's parents) never
 * answers with a path that a committed change, or the reader's own buffered change, made wrong.
 */
class DirectoryPathCacheTest extends HandleTableTestBase {
    private static final String EXPORT = "data";

    private Nfh root;
    private long nextIno = 100;

    @BeforeEach
    void createRoot() {
        try (HandleBatch batch = table.write()) {
            root = batch.ensureRoot(EXPORT, 1, 2, 0);
            batch.commit();
        }
    }

    @AfterEach
    void unbind() {
        table.unbindCurrentThread();
    }

    private Nfh add(Nfh parent, String name, FileType type) {
        try (HandleBatch batch = table.write()) {
            Nfh handle = batch.register(parent, name, type, 1, nextIno++, 0);
            batch.commit();
            return handle;
        }
    }

    private void rename(Nfh fromParent, String from, Nfh toParent, String to) {
        try (HandleBatch batch = table.write()) {
            batch.rename(fromParent, from, toParent, to);
            batch.commit();
        }
    }

    @Test
    void aFileBelowCachedDirectoriesHasItsPathFromTheCache() {
        Nfh a = add(root, "a", FileType.DIRECTORY);
        Nfh b = add(a, "b", FileType.DIRECTORY);
        Nfh file = add(b, "f", FileType.REGULAR);

        assertThat(table.path(file)).contains(List.of("a", "b", "f"));
        long epoch = table.directoryEpoch();
        assertThat(table.cachedDirectoryPath(b, epoch)).isEqualTo(List.of("a", "b"));
        assertThat(table.cachedDirectoryPath(a, epoch)).isEqualTo(List.of("a"));
        assertThat(table.cachedDirectoryPath(file, epoch)).isNull();
        assertThat(table.path(file)).contains(List.of("a", "b", "f"));
    }

    @Test
    void renamingAnAncestorDirectoryChangesThePathsBelowIt() {
        Nfh a = add(root, "a", FileType.DIRECTORY);
        Nfh b = add(a, "b", FileType.DIRECTORY);
        Nfh file = add(b, "f", FileType.REGULAR);
        assertThat(table.path(file)).contains(List.of("a", "b", "f"));

        rename(root, "a", root, "z");

        assertThat(table.path(file)).contains(List.of("z", "b", "f"));
        assertThat(table.path(b)).contains(List.of("z", "b"));
    }

    @Test
    void filesComingAndGoingKeepTheCachedDirectories() {
        Nfh a = add(root, "a", FileType.DIRECTORY);
        Nfh first = add(a, "f", FileType.REGULAR);
        assertThat(table.path(first)).contains(List.of("a", "f"));
        long epoch = table.directoryEpoch();

        Nfh second = add(a, "g", FileType.REGULAR);
        try (HandleBatch batch = table.write()) {
            batch.unlink(a, "f");
            batch.commit();
        }

        assertThat(table.directoryEpoch()).isEqualTo(epoch);
        assertThat(table.path(second)).contains(List.of("a", "g"));
        assertThat(table.path(first)).isEmpty();
    }

    @Test
    void aRemovedDirectoryHasNoPathAnyMore() {
        Nfh a = add(root, "a", FileType.DIRECTORY);
        Nfh b = add(a, "b", FileType.DIRECTORY);
        assertThat(table.path(b)).contains(List.of("a", "b"));

        try (HandleBatch batch = table.write()) {
            batch.unlink(root, "a");
            batch.commit();
        }

        assertThat(table.path(b)).isEmpty();
        assertThat(table.path(a)).isEmpty();
    }

    @Test
    void aBufferThatRenamesADirectorySeesTheNewPathAndOthersTheOldUntilItCommits() {
        Nfh a = add(root, "a", FileType.DIRECTORY);
        Nfh file = add(a, "f", FileType.REGULAR);
        assertThat(table.path(file)).contains(List.of("a", "f"));

        TxnBuffer buffer = table.buffer();
        try (HandleTable.Binding bound = table.bind(buffer)) {
            rename(root, "a", root, "z");
            assertThat(table.path(file)).contains(List.of("z", "f"));
        }
        assertThat(table.path(file)).contains(List.of("a", "f"));

        buffer.commit(batch -> { });
        assertThat(table.path(file)).contains(List.of("z", "f"));
    }

    @Test
    void aDiscardedBufferLeavesTheCommittedPaths() {
        Nfh a = add(root, "a", FileType.DIRECTORY);
        Nfh file = add(a, "f", FileType.REGULAR);

        TxnBuffer buffer = table.buffer();
        Nfh created;
        try (HandleTable.Binding bound = table.bind(buffer)) {
            created = add(a, "d", FileType.DIRECTORY);
            rename(root, "a", root, "z");
            assertThat(table.path(created)).contains(List.of("z", "d"));
        }
        buffer.discard();

        assertThat(table.path(file)).contains(List.of("a", "f"));
        assertThat(table.path(created)).isEmpty();
        assertThat(table.node(created)).isEqualTo(Optional.empty());
    }

    @Test
    void aSnapshotTakenBeforeARenameKeepsItsOwnPaths() {
        Nfh a = add(root, "a", FileType.DIRECTORY);
        Nfh file = add(a, "f", FileType.REGULAR);
        assertThat(table.path(file)).contains(List.of("a", "f"));

        try (HandleSnapshot before = table.read()) {
            rename(root, "a", root, "z");
            assertThat(table.path(file)).contains(List.of("z", "f"));
            assertThat(before.path(file)).contains(List.of("a", "f"));
        }
    }

    @Test
    void theCacheHoldsAtMostItsBound() {
        Nfh dir = root;
        for (int i = 0; i < 3; i++) {
            dir = add(dir, "d" + i, FileType.DIRECTORY);
        }
        table.path(dir);
        assertThat(table.cachedDirectories()).isBetween(1, HandleTable.MAX_CACHED_DIRECTORIES);
    }
}
