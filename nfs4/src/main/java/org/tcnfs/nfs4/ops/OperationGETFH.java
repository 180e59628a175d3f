package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.xdr.GETFH4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_fh4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/** GETFH (RFC 8881 18.8): returns the current file handle. */
public final class OperationGETFH implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        result.body = new GETFH4resok(new nfs_fh4(context.currentInode().toBytes()));
    }
}
