package org.tcnfs.nfs4.ops;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.READLINK4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * READLINK (RFC 8881 18.24): the target of the symbolic link of the current file handle, as stored.
 * Anything else, directories included, is NFS4ERR_INVAL.
 */
public final class OperationREADLINK implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        VirtualFileSystem fs = context.fs();
        Inode inode = context.currentInode();
        FileType type = fs.getattr(inode).type();
        if (type != FileType.SYMLINK) {
            throw new InvalException("not a symbolic link: " + type);
        }
        result.body = new READLINK4resok(fs.readlink(inode).getBytes(StandardCharsets.UTF_8));
    }
}
