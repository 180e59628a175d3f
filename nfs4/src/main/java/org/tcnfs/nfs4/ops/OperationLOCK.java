package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.ByteRange;
import org.tcnfs.nfs4.state.LockResult;
import org.tcnfs.nfs4.state.LockType;
import org.tcnfs.nfs4.state.NfsClient;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.status.GraceException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.status.NoGraceException;
import org.tcnfs.nfs4.status.ReclaimBadException;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.LOCK4args;
import org.tcnfs.nfs4.xdr.LOCK4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * LOCK (RFC 8881 18.10): takes a byte-range lock on the current file for a lock owner, either new to the
 * file (through an open stateid, open_to_lock_owner4) or with its lock stateid (exist_lock_owner4). The
 * blocking types count as non-blocking. A zero length, a range past the largest 64-bit offset and an
 * unknown type are NFS4ERR_INVAL; a lock the open's access does not cover is NFS4ERR_OPENMODE. Within one
 * lock owner locks have POSIX semantics (merge, split, upgrade, downgrade). A conflicting lock of another
 * owner answers NFS4ERR_DENIED with a LOCK4denied body naming it. During the grace period a non-reclaim
 * LOCK is NFS4ERR_GRACE; a reclaim is NFS4ERR_NO_GRACE outside the client's grace, else
 * NFS4ERR_RECLAIM_BAD (no lock survives a restart yet). The lock stateid is the result and the current
 * stateid.
 */
public final class OperationLOCK implements NfsOperation {

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        LOCK4args args = (LOCK4args) op.args;
        Inode file = context.currentInode();
        NfsClient client = OpenStateTable.clientOf(context);
        LockType type = LockType.of(args.locktype);
        ByteRange range = ByteRange.of(args.offset, args.length);
        StateHandler state = context.server().state();
        if (args.reclaim) {
            if (!state.canReclaim(client)) {
                throw new NoGraceException("reclaims are accepted only during the client's grace period");
            }
            throw new ReclaimBadException("no lock of the previous server instance can be reclaimed");
        }
        if (state.inGrace()) {
            throw new GraceException("only reclaims are accepted during the grace period");
        }
        Locks.requireRegularFile(context.fs(), file);

        OpenStateTable opens = state.opens();
        LockResult outcome;
        if (args.locker.new_lock_owner) {
            StateId open = OpenStateTable.resolve(context, StateId.of(args.locker.open_owner.open_stateid));
            outcome = opens.lockNewOwner(client, open, args.locker.open_owner.lock_owner.owner, file, type, range);
        } else {
            StateId lock = OpenStateTable.resolve(context, StateId.of(args.locker.lock_owner.lock_stateid));
            outcome = opens.lockExistingOwner(client, lock, file, type, range);
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
