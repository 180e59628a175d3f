package org.tcnfs.server.fs;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.ReadResult;
import org.tcnfs.nfs4.vfs.WriteStability;
import org.tcnfs.txn.handles.HandleTable;

/** A real export in a temporary directory with a real handle table, reopened on demand. */
abstract class LocalFsTestBase {
    static final String EXPORT = "test-export";
    static final Credential OWNER = new Credential(1234, 5678, new int[0]);

    @TempDir
    Path tmp;

    Path export;
    Path state;
    HandleTable table;
    LocalFileSystem fs;

    @BeforeEach
    void openExport() throws IOException {
        export = Files.createDirectory(tmp.resolve("export"));
        state = tmp.resolve("state");
        table = HandleTable.open(state);
        fs = openFileSystem();
    }

    /** The export of {@link #export} in {@link #table}; a subclass may build it otherwise. */
    LocalFileSystem openFileSystem() throws IOException {
        return LocalFileSystem.open(EXPORT, export, table);
    }

    @AfterEach
    void closeExport() {
        fs.close();
        table.close();
    }

    /**
     * Descriptors this JVM holds open on objects of the export (what {@code /proc/self/fd} links to below it): a
     * count that other threads of the test JVM (its logs, class loading, the handle table's files) do not move.
     */
    long openDescriptorsInExport() throws IOException {
        Path inside = export.toRealPath();
        long count = 0;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    if (Files.readSymbolicLink(fd).startsWith(inside)) {
                        count++;
                    }
                } catch (IOException e) {
                    // closed between the listing and the read: not open any more
                }
            }
        }
        return count;
    }

    /** Closes the file system and the table and opens both again, as a server restart does. */
    void restart() throws IOException {
        closeExport();
        table = HandleTable.open(state);
        fs = openFileSystem();
    }

    Inode root() {
        return fs.getRootInode();
    }

    Inode createFile(Inode dir, String name) throws IOException {
        return fs.create(dir, name, OWNER, 0644);
    }

    Inode mkdir(Inode dir, String name) throws IOException {
        return fs.mkdir(dir, name, OWNER, 0755);
    }

    void writeString(Inode file, long offset, String text) throws IOException {
        fs.write(file, offset, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), WriteStability.UNSTABLE);
    }

    String readString(Inode file, long offset, int max) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(max);
        ReadResult result = fs.read(file, offset, buffer);
        return new String(buffer.array(), 0, result.count(), StandardCharsets.UTF_8);
    }

    static void assertStatus(NfsStatus status, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(NfsException.class,
                e -> org.assertj.core.api.Assertions.assertThat(e.status()).as(e.getMessage()).isEqualTo(status));
    }
}
