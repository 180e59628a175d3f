package org.tcnfs.nfs4.ops;

import java.io.IOException;
import java.util.Optional;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.ByteRangeLock;
import org.tcnfs.nfs4.state.NfsClient;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.status.GraceException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.LOCKT4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * LOCKT (RFC 8881 18.11): would the lock conflict with one held on the current file? NFS4_OK if not, else
 * NFS4ERR_DENIED with a LOCK4denied body naming the conflicting lock. An owner's own locks never conflict;
 * the owner's client id on the wire is ignored in favour of the session's client (in NFSv4.0, which has no
 * sessions, it names the client: NFS4ERR_STALE_CLIENTID or NFS4ERR_EXPIRED if it cannot, and its lease is
 * renewed). Creates no state. During the grace period it is NFS4ERR_GRACE (locks may still be reclaimed).
 */
public final class OperationLOCKT implements NfsOperation {

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        LOCKT4args args = (LOCKT4args) op.args;
        StateHandler state = context.server().state();
        Locks.Request request = context.minorVersion() == 0
                ? Locks.Request.of(context, nfs40Client(context, state, args), args.locktype, args.offset, args.length)
                : Locks.Request.of(context, args.locktype, args.offset, args.length);
        if (state.inGrace()) {
            throw new GraceException("locks may still be reclaimed during the grace period");
        }
        Locks.requireRegularFile(context.fs(), request.file());
        Optional<ByteRangeLock> conflict = state.opens().testLock(request.client(), args.owner.owner, request.file(),
                request.type(), request.range());
        if (conflict.isPresent()) {
            result.status = NfsStatus.DENIED.code();
            result.body = Locks.denied(conflict.get());
        }
    }

    /** NFSv4.0: the owner's client, after the current file (NFS4ERR_NOFILEHANDLE); renews its lease. */
    private static NfsClient nfs40Client(CompoundContext context, StateHandler state, LOCKT4args args)
            throws IOException {
        context.currentInode();
        return state.renewNfs40(args.owner.clientid);
    }
}
