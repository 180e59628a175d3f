package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.COMMIT4args;
import org.tcnfs.nfs4.xdr.COMMIT4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.verifier4;

/**
 * COMMIT (RFC 8881 18.3): makes earlier unstable writes to the current file durable and answers the
 * server's write verifier; a client that sees it differ from its WRITEs' resends them. A count of 0 means
 * to the end of the file. A directory is NFS4ERR_ISDIR, another non-regular file NFS4ERR_INVAL.
 */
public final class OperationCOMMIT implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        COMMIT4args args = (COMMIT4args) op.args;
        Inode inode = context.currentInode();
        DataFiles.requireRegular(context.fs().getattr(inode));
        context.fs().commit(inode, args.offset, Integer.toUnsignedLong(args.count));
        result.body = new COMMIT4resok(new verifier4(context.server().bootVerifier()));
    }
}
