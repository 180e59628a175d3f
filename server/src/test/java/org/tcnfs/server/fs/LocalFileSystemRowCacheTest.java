package org.tcnfs.server.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.CompoundScope;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.TxnBuffer;

/**
 * The handle-table reads the file system keeps across compounds ({@link RowCache}): answered again while the table
 * did not change, read again after any change of it, never used by a thread whose buffer holds rows of its own.
 */
class LocalFileSystemRowCacheTest extends LocalFsTestBase {
    private Inode file;

    /** a/b/c/f, with the handle of f in {@link #file}. */
    private void tree() throws IOException {
        file = createFile(mkdir(mkdir(mkdir(root(), "a"), "b"), "c"), "f");
    }

    /** One compound: LOOKUPs from the root along {@code names}, then GETATTR; the handle found. */
    private Inode walk(String... names) throws IOException {
        long outer = CompoundScope.begin();
        try {
            CompoundScope.endChange();
            Inode at = root();
            for (String name : names) {
                at = fs.lookup(at, name, stat -> { });
            }
            fs.getattr(at);
            return at;
        } finally {
            CompoundScope.end(outer);
        }
    }

    /** One compound of one GETATTR of {@code inode}, as PUTFH GETATTR. */
    private void getattr(Inode inode) throws IOException {
        long outer = CompoundScope.begin();
        try {
            CompoundScope.endChange();
            fs.getattr(inode);
        } finally {
            CompoundScope.end(outer);
        }
    }

    @Test
    void aWalkRepeatedWhileTheTableDoesNotChangeReadsNoRow() throws IOException {
        tree();
        walk("a", "b", "c", "f");
        getattr(file);
        long before = fs.tableReadCount();
        for (int i = 0; i < 3; i++) {
            assertThat(walk("a", "b", "c", "f")).isEqualTo(file);
            getattr(file);
        }
        assertThat(fs.tableReadCount() - before).isZero();
        assertThat(fs.cachedRowAnswerCount()).isPositive();
    }

    @Test
    void aRenameInBetweenIsSeenByTheNextWalkAndResolution() throws IOException {
        tree();
        Inode b = walk("a", "b");
        walk("a", "b", "c", "f");
        getattr(file);
        fs.rename(walk("a"), "b", walk("a"), "moved");
        long before = fs.tableReadCount();
        assertStatus(NfsStatus.NOENT, () -> walk("a", "b"));
        assertThat(walk("a", "moved")).isEqualTo(b);
        assertThat(walk("a", "moved", "c", "f")).isEqualTo(file);
        getattr(file);
        assertThat(fs.tableReadCount() - before).as("read again after the change").isPositive();
    }

    @Test
    void aRemovalInBetweenMakesTheOldHandleStale() throws IOException {
        tree();
        Inode c = walk("a", "b", "c");
        walk("a", "b", "c", "f");
        getattr(file);
        fs.remove(c, "f");
        assertStatus(NfsStatus.NOENT, () -> walk("a", "b", "c", "f"));
        assertStatus(NfsStatus.STALE, () -> getattr(file));
    }

    @Test
    void aCreateInBetweenIsFoundWithItsOwnHandle() throws IOException {
        tree();
        Inode c = walk("a", "b", "c");
        walk("a", "b", "c", "f");
        fs.remove(c, "f");
        Inode again = createFile(c, "f");
        assertThat(walk("a", "b", "c", "f")).isEqualTo(again).isNotEqualTo(file);
        getattr(again);
    }

    @Test
    void aReplacementBesideTheServerIsFoundAlthoughTheTableDidNotChange() throws IOException {
        tree();
        walk("a", "b", "c", "f");
        getattr(file);
        Files.delete(export.resolve("a/b/c/f"));
        Files.createFile(export.resolve("a/b/c/f"));
        assertStatus(NfsStatus.STALE, () -> getattr(file));
        assertThat(walk("a", "b", "c", "f")).isNotEqualTo(file);
    }

    @Test
    void aThreadWhoseBufferHoldsARenameSeesItsOwnRowsNotTheCachedOnes() throws IOException {
        tree();
        Inode a = walk("a");
        Inode b = walk("a", "b");
        walk("a", "b", "c", "f");
        getattr(file);
        TxnBuffer buffer = table.buffer();
        try (HandleTable.Binding binding = table.bind(buffer)) {
            fs.rename(a, "b", a, "moved");
            long before = fs.tableReadCount();
            assertThat(walk("a", "moved")).isEqualTo(b);
            getattr(file);
            assertThat(fs.tableReadCount() - before).as("read through the buffer").isPositive();
        } finally {
            buffer.discard();
        }
    }
}
