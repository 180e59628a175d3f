package org.tcnfs.it;

import java.io.IOException;
import java.nio.file.Path;

/** {@link RollbackRestoresStateContract} with the server's directories on an ext4 loop mount (copy fallback). */
class RollbackRestoresStateExt4IT extends RollbackRestoresStateContract {
    @Override
    Path workDirectory() throws IOException {
        return TestMounts.directoryOn("TCNFS_EXT4_DIR", "ext4");
    }
}
