package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.xdr.DESTROY_CLIENTID4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * DESTROY_CLIENTID (RFC 8881 18.50): removes a client record. An unknown client id is
 * NFS4ERR_STALE_CLIENTID; a client that still has sessions, or opens or locks under an unexpired lease, is
 * NFS4ERR_CLIENTID_BUSY (18.50.3) and keeps them. A client whose lease expired is removed with its state.
 */
public final class OperationDESTROY_CLIENTID implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        DESTROY_CLIENTID4args args = (DESTROY_CLIENTID4args) op.args;
        long clientId = args.dca_clientid;
        context.server().state().destroyClient(clientId);
    }
}
