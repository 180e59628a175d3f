package org.tcnfs.it;

import java.io.IOException;
import java.nio.file.Path;

/** {@link SparseBackupsContract} with the server's directories on tmpfs (copies). */
class SparseBackupsTmpfsIT extends SparseBackupsContract {
    @Override
    Path workDirectory() throws IOException {
        return TestMounts.directoryOn("TCNFS_TMPFS_DIR", "tmpfs");
    }
}
