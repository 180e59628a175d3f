package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * LOOKUPP (RFC 8881 18.14): the parent of the current directory becomes current; NFS4ERR_NOENT at the
 * root, NFS4ERR_NOTDIR (NFS4ERR_SYMLINK) when the current file handle is not a directory.
 */
public final class OperationLOOKUPP implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        VirtualFileSystem fs = context.fs();
        Inode dir = context.currentInode();
        Directories.requireDirectory(fs, dir);
        context.setCurrentInode(fs.parentOf(dir));
    }
}
