package org.tcnfs.it;

import java.io.IOException;
import java.nio.file.Path;

/** {@link TransactionAtomicityContract} with the server's directories on tmpfs (no reflink, no block device). */
class TransactionAtomicityTmpfsIT extends TransactionAtomicityContract {
    @Override
    Path workDirectory() throws IOException {
        return TestMounts.directoryOn("TCNFS_TMPFS_DIR", "tmpfs");
    }
}
