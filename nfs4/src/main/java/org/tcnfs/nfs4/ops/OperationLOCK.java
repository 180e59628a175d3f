package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.LockResult;
import org.tcnfs.nfs4.state.LockWait;
import org.tcnfs.nfs4.state.NfsClient;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.OwnerSequence;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.status.BadStateIdException;
import org.tcnfs.nfs4.status.GraceException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.status.NoGraceException;
import org.tcnfs.nfs4.status.ReclaimBadException;
import org.tcnfs.nfs4.xdr.LOCK4args;
import org.tcnfs.nfs4.xdr.LOCK4resok;
import org.tcnfs.nfs4.xdr.exist_lock_owner4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_lock_type4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.open_to_lock_owner4;

/**
 * LOCK (RFC 8881 18.10): takes a byte-range lock on the current file for a lock owner, either new to the
 * file (through an open stateid, open_to_lock_owner4) or with its lock stateid (exist_lock_owner4). The
 * server never makes a request wait: a blocking type (READW_LT, WRITEW_LT) that is denied is answered
 * NFS4ERR_DENIED at once, and its lock owner is queued for a lease (RFC 7530 9.4, RFC 8881 9.6); while it
 * waits, a lock that conflicts with what it wants is denied to lock owners that asked later, so a released
 * lock goes to the first waiter that polls again within its lease ({@link LockWait}). A zero length, a range past the largest 64-bit offset and an
 * unknown type are NFS4ERR_INVAL; a lock the open's access does not cover is NFS4ERR_OPENMODE. Within one
 * lock owner locks have POSIX semantics (merge, split, upgrade, downgrade). A conflicting lock of another
 * owner answers NFS4ERR_DENIED with a LOCK4denied body naming it. During the grace period a non-reclaim
 * LOCK is NFS4ERR_GRACE; a reclaim is NFS4ERR_NO_GRACE outside the client's grace, else
 * NFS4ERR_RECLAIM_BAD (no lock survives a restart yet). The lock stateid is the result and the current
 * stateid. NFSv4.0 adds the owners' seqids; see {@link #processNfs40}.
 */
public final class OperationLOCK implements NfsOperation {

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        LOCK4args args = (LOCK4args) op.args;
        if (context.minorVersion() == 0) {
            processNfs40(context, args, result);
            return;
        }
        lock(context, args, Locks.Request.of(context, args.locktype, args.offset, args.length), result);
    }

    /**
     * NFSv4.0 (RFC 7530 16.10): the LOCK runs in sequence with the seqid of its open owner (new lock
     * owner: {@code open_seqid}) or of its lock owner ({@code lock_seqid}), so a retransmission gets the
     * original reply; a new lock owner's sequence starts at its {@code lock_seqid} once the lock is granted.
     * The client is the open's or lock owner's, and its lease is renewed; a new lock owner named with
     * another client id is NFS4ERR_STALE_CLIENTID for an unknown id, else NFS4ERR_BAD_STATEID.
     */
    private static void processNfs40(CompoundContext context, LOCK4args args, nfs_resop4 result) throws IOException {
        context.currentInode();
        StateHandler state = context.server().state();
        OpenStateTable opens = state.opens();
        if (args.locker.new_lock_owner) {
            open_to_lock_owner4 newOwner = args.locker.open_owner;
            OwnerSequence openOwner = opens.ownerOf(StateId.of(newOwner.open_stateid));
            openOwner.run(context, newOwner.open_seqid, nfs_opnum4.OP_LOCK, result, () -> {
                NfsClient client = openOwner.client();
                if (newOwner.lock_owner.clientid != client.clientId()) {
                    state.renewNfs40(newOwner.lock_owner.clientid);
                    throw new BadStateIdException("the lock owner's client is not the open's");
                }
                Locks.Request request = Locks.Request.of(context, client, args.locktype, args.offset, args.length);
                OwnerSequence lockOwner = opens.lockOwner(client, newOwner.lock_owner.owner);
                lockOwner.runFirst(context, newOwner.lock_seqid, nfs_opnum4.OP_LOCK, result,
                        () -> lock(context, args, request, result));
            });
        } else {
            exist_lock_owner4 existing = args.locker.lock_owner;
            OwnerSequence lockOwner = opens.ownerOf(StateId.of(existing.lock_stateid));
            lockOwner.run(context, existing.lock_seqid, nfs_opnum4.OP_LOCK, result, () -> lock(context, args,
                    Locks.Request.of(context, lockOwner.client(), args.locktype, args.offset, args.length), result));
        }
    }

    /** The LOCK of {@code request}: reclaim and grace checks, then the lock through an open or a lock stateid. */
    private static void lock(CompoundContext context, LOCK4args args, Locks.Request request, nfs_resop4 result)
            throws IOException {
        StateHandler state = context.server().state();
        if (args.reclaim) {
            if (!state.canReclaim(request.client())) {
                throw new NoGraceException("reclaims are accepted only during the client's grace period");
            }
            throw new ReclaimBadException("no lock of the previous server instance can be reclaimed");
        }
        if (state.inGrace()) {
            throw new GraceException("only reclaims are accepted during the grace period");
        }
        Locks.requireRegularFile(context.fs(), request.file());

        OpenStateTable opens = state.opens();
        LockWait wait = args.locktype == nfs_lock_type4.READW_LT || args.locktype == nfs_lock_type4.WRITEW_LT
                ? LockWait.blocking(context.server().limits().lease()) : LockWait.NONE;
        LockResult outcome;
        if (args.locker.new_lock_owner) {
            StateId open = OpenStateTable.resolve(context, StateId.of(args.locker.open_owner.open_stateid));
            outcome = opens.lockNewOwner(request.client(), open, args.locker.open_owner.lock_owner.owner,
                    request.file(), request.type(), request.range(), wait);
        } else {
            StateId lock = OpenStateTable.resolve(context, StateId.of(args.locker.lock_owner.lock_stateid));
            outcome = opens.lockExistingOwner(request.client(), lock, request.file(), request.type(),
                    request.range(), wait);
        }
        if (outcome instanceof LockResult.Granted granted) {
            context.setCurrentStateId(granted.stateId());
            result.body = new LOCK4resok(granted.stateId().toWire());
        } else if (outcome instanceof LockResult.Denied denied) {
            result.status = NfsStatus.DENIED.code();
            result.body = Locks.denied(denied.conflict());
        }
    }
}
