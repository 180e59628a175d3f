package org.tcnfs.txn.handles;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.vfs.FileType;

/**
 * Base of tests on one {@link HandleTable} in a fresh temporary state directory: opened before each test and
 * closed after it (after the subclass's own {@code @AfterEach} methods).
 */
public abstract class HandleTableTestBase {
    /** The state directory the table lives in. */
    @TempDir
    protected Path state;

    /** The table of the running test. */
    protected HandleTable table;

    @BeforeEach
    protected void openTable() {
        table = HandleTable.open(state);
    }

    @AfterEach
    protected void closeTable() {
        table.close();
    }

    /** The root of export "data" (made on first use). */
    protected Nfh root() {
        try (HandleBatch batch = table.write()) {
            Nfh root = batch.ensureRoot("data", 1, 2, 0);
            batch.commit();
            return root;
        }
    }

    /** Registers {@code name} in {@code parent} (device 1, inode {@code ino}, no birth time) in its own commit. */
    protected Nfh add(Nfh parent, String name, FileType type, long ino) {
        try (HandleBatch batch = table.write()) {
            Nfh handle = batch.register(parent, name, type, 1, ino, 0);
            batch.commit();
            return handle;
        }
    }

    /** Closes the table and opens it again on the same state directory, as a restart does. */
    protected void reopen() {
        table.close();
        table = HandleTable.open(state);
    }
}
