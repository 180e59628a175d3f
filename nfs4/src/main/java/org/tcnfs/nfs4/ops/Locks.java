package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.state.ByteRangeLock;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.IsDirException;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.LOCK4denied;
import org.tcnfs.nfs4.xdr.lock_owner4;

/** What LOCK, LOCKT and LOCKU share. */
final class Locks {
    private Locks() {
    }

    /**
     * Byte-range locks are for regular files.
     *
     * @throws IsDirException for a directory
     * @throws InvalException for anything else that is not a regular file
     */
    static void requireRegularFile(VirtualFileSystem fs, Inode file) throws IOException {
        FileType type = fs.getattr(file).type();
        if (type == FileType.DIRECTORY) {
            throw new IsDirException("byte-range lock on a directory");
        }
        if (type != FileType.REGULAR) {
            throw new InvalException("byte-range lock on a " + type);
        }
    }

    /** The LOCK4denied body describing {@code conflict}. */
    static LOCK4denied denied(ByteRangeLock conflict) {
        return new LOCK4denied(conflict.range().offset(), conflict.range().length(), conflict.type().toWire(),
                new lock_owner4(conflict.owner().clientId(), conflict.owner().owner()));
    }
}
