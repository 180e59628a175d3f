package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.NfsSession;
import org.tcnfs.nfs4.state.SessionId;
import org.tcnfs.nfs4.status.NotOnlyOpException;
import org.tcnfs.nfs4.xdr.DESTROY_SESSION4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * DESTROY_SESSION (RFC 8881 18.37): ends a session; the client record and its state stay. An unknown
 * session is NFS4ERR_BADSESSION. A compound that destroys its own session must do so as its last
 * operation (NFS4ERR_NOT_ONLY_OP otherwise).
 */
public final class OperationDESTROY_SESSION implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        DESTROY_SESSION4args args = (DESTROY_SESSION4args) op.args;
        SessionId id = SessionId.of(args.dsa_sessionid);

        NfsSession own = context.session();
        if (own != null && own.id().equals(id) && context.opIndex() != context.opCount() - 1) {
            throw new NotOnlyOpException("DESTROY_SESSION of the compound's own session must come last");
        }
        context.server().state().destroySession(id);
    }
}
