package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * RESTOREFH (RFC 8881 18.27): the saved file handle (and stateid) become current; NFS4ERR_RESTOREFH when
 * nothing was saved.
 */
public final class OperationRESTOREFH implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        context.restoreSaved();
    }
}
