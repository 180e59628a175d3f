package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.attr.FileAttributes;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.status.NotSameException;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.VERIFY4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * VERIFY (RFC 8881 18.31): succeeds if the given attribute values equal those of the current file handle
 * (compared as encoded bytes), else NFS4ERR_NOT_SAME. Unsupported attributes are NFS4ERR_ATTRNOTSUPP;
 * rdattr_error and write-only attributes NFS4ERR_INVAL.
 */
public final class OperationVERIFY implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        VERIFY4args args = (VERIFY4args) op.args;
        Inode inode = context.currentInode();
        if (!FileAttributes.matches(context, inode, context.fs().getattr(inode), args.obj_attributes)) {
            throw new NotSameException();
        }
    }
}
