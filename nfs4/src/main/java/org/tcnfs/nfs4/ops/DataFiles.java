package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.IsDirException;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Stat;

/** Checks shared by READ, WRITE and COMMIT. */
final class DataFiles {
    private DataFiles() {
    }

    /**
     * Requires a regular file: a directory is NFS4ERR_ISDIR, any other type NFS4ERR_INVAL.
     */
    static void requireRegular(Stat stat) throws IOException {
        if (stat.type() == FileType.DIRECTORY) {
            throw new IsDirException();
        }
        if (stat.type() != FileType.REGULAR) {
            throw new InvalException("not a regular file: " + stat.type());
        }
    }
}
