package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.NfsSession;
import org.tcnfs.nfs4.status.OpNotInSessionException;
import org.tcnfs.nfs4.xdr.RECLAIM_COMPLETE4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * RECLAIM_COMPLETE (RFC 8881 18.51). With {@code rca_one_fs} false the session's client declares that it
 * reclaims nothing more: a second one is NFS4ERR_COMPLETE_ALREADY, and the client no longer holds the
 * grace period open. With {@code rca_one_fs} true it concerns the current file handle's file system; the
 * server keeps no per-file-system reclaim state, so it only checks there is a current file handle.
 * Outside the grace period it is accepted all the same.
 */
public final class OperationRECLAIM_COMPLETE implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        RECLAIM_COMPLETE4args args = (RECLAIM_COMPLETE4args) op.args;
        boolean oneFs = args.rca_one_fs;

        NfsSession session = context.session();
        if (session == null) {
            throw new OpNotInSessionException("RECLAIM_COMPLETE needs a session");
        }
        if (oneFs) {
            context.currentInode();
            return;
        }
        context.server().state().reclaimComplete(session.client());
    }
}
