package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.attr.FileAttributes;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.xdr.GETATTR4args;
import org.tcnfs.nfs4.xdr.GETATTR4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * GETATTR (RFC 8881 18.7): the requested attributes of the current file handle. Unsupported attributes
 * are left out of the returned mask; asking for a write-only one is NFS4ERR_INVAL.
 */
public final class OperationGETATTR implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        GETATTR4args args = (GETATTR4args) op.args;
        Inode inode = context.currentInode();
        Stat stat = context.getattr(inode);
        result.body = new GETATTR4resok(FileAttributes.encode(context, inode, stat, args.attr_request));
    }
}
