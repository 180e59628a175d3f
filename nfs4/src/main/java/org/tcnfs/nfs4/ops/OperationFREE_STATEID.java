package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.NfsClient;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.xdr.FREE_STATEID4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * FREE_STATEID (RFC 8881 18.38): forgets a lock stateid whose owner holds no locks on the file any more.
 * A lock stateid that still holds locks, and an open stateid (CLOSE ends those), are NFS4ERR_LOCKS_HELD;
 * unknown and special stateids NFS4ERR_BAD_STATEID. Needs no file handle.
 */
public final class OperationFREE_STATEID implements NfsOperation {

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        FREE_STATEID4args args = (FREE_STATEID4args) op.args;
        NfsClient client = OpenStateTable.clientOf(context);
        StateId stateId = OpenStateTable.resolve(context, StateId.of(args.fsa_stateid));
        context.server().state().opens().free(client, stateId);
    }
}
