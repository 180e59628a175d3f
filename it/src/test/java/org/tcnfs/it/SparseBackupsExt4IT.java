package org.tcnfs.it;

import java.io.IOException;
import java.nio.file.Path;

/** {@link SparseBackupsContract} with the server's directories on ext4 (copies). */
class SparseBackupsExt4IT extends SparseBackupsContract {
    @Override
    Path workDirectory() throws IOException {
        return TestMounts.directoryOn("TCNFS_EXT4_DIR", "ext4");
    }
}
