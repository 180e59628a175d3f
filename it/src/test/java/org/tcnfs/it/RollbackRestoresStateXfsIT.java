package org.tcnfs.it;

import java.io.IOException;
import java.nio.file.Path;

/** {@link RollbackRestoresStateContract} with the server's directories on a reflink XFS loop mount (clones). */
class RollbackRestoresStateXfsIT extends RollbackRestoresStateContract {
    @Override
    Path workDirectory() throws IOException {
        return TestMounts.directoryOn("TCNFS_XFS_DIR", "xfs");
    }
}
