package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.status.BadStateIdException;
import org.tcnfs.nfs4.xdr.DELEGRETURN4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * DELEGRETURN (RFC 8881 18.6): this server never grants delegations, so every stateid, once the current
 * file handle is known to exist, is NFS4ERR_BAD_STATEID; in NFSv4.0 (RFC 7530 16.6), which has no session
 * to name the client, a stateid of an earlier server instance is NFS4ERR_STALE_STATEID and one of an
 * expired client NFS4ERR_EXPIRED.
 */
public final class OperationDELEGRETURN implements NfsOperation {

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        DELEGRETURN4args args = (DELEGRETURN4args) op.args;
        context.currentInode();
        if (context.minorVersion() == 0) {
            throw context.server().state().opens().unknownStateId(StateId.of(args.deleg_stateid));
        }
        OpenStateTable.clientOf(context);
        StateId stateId = OpenStateTable.resolve(context, StateId.of(args.deleg_stateid));
        throw new BadStateIdException("no delegation is ever granted: " + stateId);
    }
}
