package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.state.ByteRange;
import org.tcnfs.nfs4.state.ByteRangeLock;
import org.tcnfs.nfs4.state.LockType;
import org.tcnfs.nfs4.state.NfsClient;
import org.tcnfs.nfs4.state.OpenStateTable;
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
     * What LOCK, LOCKT and LOCKU start from: the current file, the session's client, and the lock type and
     * range of the arguments.
     */
    record Request(Inode file, NfsClient client, LockType type, ByteRange range) {

        /**
         * Converts in this order: the current file (NFS4ERR_NOFILEHANDLE), the client, the type and the
         * range (NFS4ERR_INVAL).
         */
        static Request of(CompoundContext context, int locktype, long offset, long length) throws IOException {
            return new Request(context.currentInode(), OpenStateTable.clientOf(context), LockType.of(locktype),
                    ByteRange.of(offset, length));
        }

        /**
         * The same for an NFSv4.0 request, whose client comes from its lock owner or stateid rather than
         * from a session: the current file, the type and the range.
         */
        static Request of(CompoundContext context, NfsClient client, int locktype, long offset, long length)
                throws IOException {
            return new Request(context.currentInode(), client, LockType.of(locktype), ByteRange.of(offset, length));
        }
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
