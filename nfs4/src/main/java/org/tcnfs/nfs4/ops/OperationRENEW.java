package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.xdr.RENEW4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * RENEW (RFC 7530 16.28), NFSv4.0 only: renews the lease of a confirmed client. A client whose lease ran
 * out (or that a restart replaced) is NFS4ERR_EXPIRED, an unknown or unconfirmed client id
 * NFS4ERR_STALE_CLIENTID. No callback path is kept, so NFS4ERR_CB_PATH_DOWN is never returned.
 */
public final class OperationRENEW implements NfsOperation {

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        RENEW4args args = (RENEW4args) op.args;
        context.server().state().renewNfs40(args.clientid);
    }
}
