package org.tcnfs.it;

import java.io.IOException;
import java.nio.file.Path;

/** {@link CrashRecoveryContract} with the server's directories on an ext4 loop mount (no reflink: copies). */
class CrashRecoveryExt4IT extends CrashRecoveryContract {
    @Override
    Path workDirectory() throws IOException {
        return TestMounts.directoryOn("TCNFS_EXT4_DIR", "ext4");
    }

    @Override
    int matrixShare() {
        return 1;
    }
}
