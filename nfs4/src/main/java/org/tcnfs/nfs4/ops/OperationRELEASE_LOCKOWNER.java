package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.NfsClient;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.xdr.RELEASE_LOCKOWNER4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * RELEASE_LOCKOWNER (RFC 7530 16.37), NFSv4.0 only: the server forgets a lock owner, its lock stateids and
 * its seqid. NFS4ERR_LOCKS_HELD while the owner holds a byte-range lock on any file; an owner the server
 * does not know is no error. The client id must be a confirmed one (else NFS4ERR_STALE_CLIENTID or
 * NFS4ERR_EXPIRED), and its lease is renewed.
 */
public final class OperationRELEASE_LOCKOWNER implements NfsOperation {

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        RELEASE_LOCKOWNER4args args = (RELEASE_LOCKOWNER4args) op.args;
        StateHandler state = context.server().state();
        NfsClient client = state.renewNfs40(args.lock_owner.clientid);
        state.opens().releaseLockOwner(client, args.lock_owner.owner);
    }
}
