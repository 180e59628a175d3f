package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.xdr.SETCLIENTID_CONFIRM4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * SETCLIENTID_CONFIRM (RFC 7530 16.34), NFSv4.0 only: confirms the record SETCLIENTID made, by client id
 * and confirm verifier (see {@link org.tcnfs.nfs4.state.StateHandler#confirmClientId}). A confirmed client
 * restart expires the client's earlier incarnation with all its state; a retransmission is answered
 * NFS4_OK again. Another principal is NFS4ERR_CLID_INUSE; an unknown id or verifier NFS4ERR_STALE_CLIENTID.
 */
public final class OperationSETCLIENTID_CONFIRM implements NfsOperation {

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        SETCLIENTID_CONFIRM4args args = (SETCLIENTID_CONFIRM4args) op.args;
        context.server().state().confirmClientId(args.clientid, args.setclientid_confirm.value,
                context.credential().uid());
    }
}
