package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.ClientCallback;
import org.tcnfs.nfs4.state.ClientOwner;
import org.tcnfs.nfs4.state.OwnerId;
import org.tcnfs.nfs4.state.SetClientIdResult;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.SETCLIENTID4args;
import org.tcnfs.nfs4.xdr.SETCLIENTID4resok;
import org.tcnfs.nfs4.xdr.netaddr4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.verifier4;

/**
 * SETCLIENTID (RFC 7530 16.33), NFSv4.0 only: records an unconfirmed client for the identity and verifier
 * the client sent, following the case analysis of 16.33.5 (see
 * {@link org.tcnfs.nfs4.state.StateHandler#setClientId}), and answers with the client id and the verifier
 * SETCLIENTID_CONFIRM must present. When another principal's confirmed client with state uses the identity
 * the answer is NFS4ERR_CLID_INUSE with that client's callback address. The principal is the caller's
 * AUTH_SYS uid. The callback information is recorded, but no callback is ever sent: the server grants no
 * delegations. A new client when the client table is full of confirmed clients
 * ({@link org.tcnfs.nfs4.state.SessionLimits#maxClients()}) is NFS4ERR_RESOURCE (16.33.5 lists it).
 */
public final class OperationSETCLIENTID implements NfsOperation {

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        SETCLIENTID4args args = (SETCLIENTID4args) op.args;
        if (args.callback.cb_location.na_r_netid == null || args.callback.cb_location.na_r_addr == null) {
            throw new InvalException("callback netid or address is not valid UTF-8");
        }
        ClientOwner owner = new ClientOwner(new OwnerId(args.client.id), args.client.verifier.value);
        ClientCallback callback = new ClientCallback(args.callback.cb_program, args.callback.cb_location.na_r_netid,
                args.callback.cb_location.na_r_addr, args.callback_ident);
        SetClientIdResult outcome = context.server().state().setClientId(owner, callback, context.credential().uid(),
                context.clientAddress());
        if (outcome instanceof SetClientIdResult.Accepted accepted) {
            result.body = new SETCLIENTID4resok(accepted.clientId(), new verifier4(accepted.confirmVerifier()));
        } else if (outcome instanceof SetClientIdResult.InUse inUse) {
            result.status = NfsStatus.CLID_INUSE.code();
            result.body = new netaddr4(inUse.holder().netid(), inUse.holder().address());
        }
    }
}
