package org.tcnfs.it;

import java.io.IOException;
import java.nio.file.Path;

/** {@link SparseBackupsContract} with the server's directories on xfs with reflink (clones). */
class SparseBackupsXfsIT extends SparseBackupsContract {
    @Override
    Path workDirectory() throws IOException {
        return TestMounts.directoryOn("TCNFS_XFS_DIR", "xfs");
    }
}
