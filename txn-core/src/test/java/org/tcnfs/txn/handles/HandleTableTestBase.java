package org.tcnfs.txn.handles;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

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

    /** Closes the table and opens it again on the same state directory, as a restart does. */
    protected void reopen() {
        table.close();
        table = HandleTable.open(state);
    }
}
