package org.tcnfs.server.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.vfs.CompoundScope;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.txn.handles.HandleBatch;
import org.tcnfs.txn.handles.Nfh;

/**
 * How often resolving handles checks on the disk that a directory is reached from the export root without a
 * symbolic link ({@link LocalFileSystem#symlinkCheckCount()}): once per directory and compound while no directory
 * is removed or renamed, every time outside a compound; and the names the kernel looks up for it
 * ({@link LocalFileSystem#pathNameCount()}): only those below the export root.
 */
class LocalFileSystemResolutionTest extends LocalFsTestBase {
    private static final int FILES = 8;

    private List<Inode> files(Inode dir) throws IOException {
        List<Inode> out = new ArrayList<>();
        for (int i = 0; i < FILES; i++) {
            out.add(createFile(dir, "f" + i));
        }
        return out;
    }

    @Test
    void aCompoundChecksTheDirectoryOfManyObjectsOnce() throws IOException {
        Inode b = mkdir(mkdir(root(), "a"), "b");
        List<Inode> files = files(b);
        long before = fs.symlinkCheckCount();
        long outer = CompoundScope.begin();
        try {
            for (Inode f : files) {
                fs.getattr(f);
            }
        } finally {
            CompoundScope.end(outer);
        }
        assertThat(fs.symlinkCheckCount() - before).isEqualTo(1);
    }

    @Test
    void withoutACompoundEveryResolutionChecks() throws IOException {
        Inode b = mkdir(mkdir(root(), "a"), "b");
        List<Inode> files = files(b);
        long before = fs.symlinkCheckCount();
        for (Inode f : files) {
            fs.getattr(f);
        }
        assertThat(fs.symlinkCheckCount() - before).isEqualTo(FILES);
    }

    @Test
    void theNextCompoundChecksAgain() throws IOException {
        Inode file = createFile(mkdir(root(), "a"), "f");
        long before = fs.symlinkCheckCount();
        for (int i = 0; i < 3; i++) {
            long outer = CompoundScope.begin();
            try {
                fs.getattr(file);
                fs.getattr(file);
            } finally {
                CompoundScope.end(outer);
            }
        }
        assertThat(fs.symlinkCheckCount() - before).isEqualTo(3);
    }

    @Test
    void aLookedUpDirectoryNeedsNoCheckOfItsOwn() throws IOException {
        Inode a = mkdir(root(), "a");
        mkdir(a, "b");
        long before = fs.symlinkCheckCount();
        long outer = CompoundScope.begin();
        try {
            Inode b = fs.lookup(a, "b", stat -> { });
            fs.getattr(b);
            fs.lookup(b, "missing-is-fine", stat -> { });
        } catch (org.tcnfs.nfs4.status.NoEntException expected) {
            // the lookup of a missing name still resolved b without a check
        } finally {
            CompoundScope.end(outer);
        }
        assertThat(fs.symlinkCheckCount() - before).as("only a is checked").isEqualTo(1);
    }

    @Test
    void removingOrRenamingADirectoryMakesTheCompoundCheckAgain() throws IOException {
        Inode a = mkdir(root(), "a");
        Inode file = createFile(a, "f");
        mkdir(a, "empty");
        mkdir(a, "moved");
        long before = fs.symlinkCheckCount();
        long outer = CompoundScope.begin();
        try {
            fs.getattr(file);
            fs.remove(a, "empty");
            fs.getattr(file);
            fs.rename(a, "moved", a, "renamed");
            fs.getattr(file);
            fs.getattr(file);
        } finally {
            CompoundScope.end(outer);
        }
        assertThat(fs.symlinkCheckCount() - before).isEqualTo(3);
    }

    @Test
    void aLookupChainOfOneCompoundLooksUpNoNameAboveTheExportRoot() throws IOException {
        Inode dir = root();
        for (int i = 0; i < 10; i++) {
            dir = mkdir(dir, "d" + i);
        }
        createFile(dir, "f");
        long before = fs.pathNameCount();
        long outer = CompoundScope.begin();
        try {
            CompoundScope.endChange();
            Inode at = root();
            for (int i = 0; i < 10; i++) {
                at = fs.lookup(at, "d" + i, stat -> { });
            }
            fs.getattr(fs.lookup(at, "f", stat -> { }));
        } finally {
            CompoundScope.end(outer);
        }
        // LOOKUP k looks up the k names of its path below the root (relative to the root's descriptor), the GETATTR
        // of the file (resolved by its handle) the 11 of its path
        assertThat(fs.pathNameCount() - before).as("names looked up by the kernel").isEqualTo(11 * 12 / 2 + 11);
    }

    @Test
    void aDeepFileIsResolvedByTheNamesBelowTheExportRootOnly() throws IOException {
        Inode dir = root();
        for (int i = 0; i < 10; i++) {
            dir = mkdir(dir, "d" + i);
        }
        Inode file = createFile(dir, "f");
        long before = fs.pathNameCount();
        for (int i = 0; i < 3; i++) {
            long outer = CompoundScope.begin();
            try {
                CompoundScope.endChange();
                fs.getattr(file);
                fs.getattr(file);
            } finally {
                CompoundScope.end(outer);
            }
        }
        // per compound (one stretch of operations that change nothing: the second GETATTR reads nothing): its
        // directory opened by its 10 names below the root, then the file by its one name in it
        assertThat(fs.pathNameCount() - before).as("names of 3 compounds").isEqualTo(3 * 11);
    }


    @Test
    void aCompoundClosesTheDescriptorsOfItsDirectoriesWhenItEnds() throws IOException {
        Inode top = mkdir(root(), "top");
        List<Inode> files = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            files.add(createFile(mkdir(mkdir(top, "a" + i), "b"), "f"));
        }
        long before = openDescriptorsInExport();
        long outer = CompoundScope.begin();
        long during;
        try {
            for (Inode f : files) {
                fs.getattr(f);
            }
            during = openDescriptorsInExport();
        } finally {
            CompoundScope.end(outer);
        }
        assertThat(during - before).as("descriptors of the 10 directories, kept for the compound").isEqualTo(10);
        assertThat(openDescriptorsInExport()).as("after the compound").isEqualTo(before);
    }

    /**
     * The pseudo file system asks {@link LocalFileSystem#recognizes} before every operation (which export a handle
     * belongs to); a handle this export resolved in the current stretch is its own without a handle-table read. Shown
     * by taking its row away behind the stretch's back (nothing of this server does that within a stretch): the
     * stretch still recognizes it, the table no longer does once the stretch has ended.
     */
    @Test
    void aHandleResolvedInTheCurrentStretchIsRecognizedWithoutReadingTheTable() throws IOException {
        Inode file = createFile(mkdir(root(), "a"), "f");
        long outer = CompoundScope.begin();
        try {
            CompoundScope.endChange();
            fs.getattr(file);
            try (HandleBatch batch = table.write()) {
                batch.removeNode(Nfh.of(file.toBytes()));
                batch.commit();
            }
            assertThat(fs.recognizes(file)).as("in the stretch that resolved it").isTrue();
            CompoundScope.beginChange();
            assertThat(fs.recognizes(file)).as("once the stretch has ended: the table's answer").isFalse();
        } finally {
            CompoundScope.end(outer);
        }
    }
}
