package org.tcnfs.it;

import java.io.IOException;
import java.nio.file.Path;

/** {@link RollbackRestoresTimesContract} with the server's directories on an ext4 loop mount (copy fallback). */
class RollbackRestoresTimesExt4IT extends RollbackRestoresTimesContract {
    @Override
    Path workDirectory() throws IOException {
        return TestMounts.directoryOn("TCNFS_EXT4_DIR", "ext4");
    }
}
