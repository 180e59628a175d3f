package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.attr.FileAttributes;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.status.SameException;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.NVERIFY4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * NVERIFY (RFC 8881 18.15): succeeds if the given attribute values differ from those of the current file
 * handle, else NFS4ERR_SAME. Errors as for VERIFY.
 */
public final class OperationNVERIFY implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        NVERIFY4args args = (NVERIFY4args) op.args;
        Inode inode = context.currentInode();
        if (FileAttributes.matches(context, inode, context.fs().getattr(inode), args.obj_attributes)) {
            throw new SameException();
        }
    }
}
