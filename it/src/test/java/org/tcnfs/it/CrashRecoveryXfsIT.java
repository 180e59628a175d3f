package org.tcnfs.it;

import java.io.IOException;
import java.nio.file.Path;

/** {@link CrashRecoveryContract} with the server's directories on a reflink XFS loop mount (clones). */
class CrashRecoveryXfsIT extends CrashRecoveryContract {
    @Override
    Path workDirectory() throws IOException {
        return TestMounts.directoryOn("TCNFS_XFS_DIR", "xfs");
    }

    @Override
    int matrixShare() {
        return 0;
    }
}
