package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.OwnerSequence;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.xdr.LOCKU4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * LOCKU (RFC 8881 18.12): releases a range of the locks held under a lock stateid on the current file,
 * splitting a lock that extends past the range; releasing bytes not locked is no error. The lock type must
 * be a valid one but does not matter. The lock stateid's new seqid is the result and the current stateid.
 */
public final class OperationLOCKU implements NfsOperation {

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        LOCKU4args args = (LOCKU4args) op.args;
        if (context.minorVersion() == 0) {
            processNfs40(context, args, result);
            return;
        }
        Locks.Request request = Locks.Request.of(context, args.locktype, args.offset, args.length);
        StateId lock = OpenStateTable.resolve(context, StateId.of(args.lock_stateid));
        StateId unlocked = context.server().state().opens().unlock(request.client(), lock, request.file(),
                request.range());
        context.setCurrentStateId(unlocked);
        result.body = unlocked.toWire();
    }

    /**
     * NFSv4.0 (RFC 7530 16.12): in sequence with the lock owner's seqid (a retransmission gets the original
     * reply); the client is the lock stateid's, and its lease is renewed.
     */
    private static void processNfs40(CompoundContext context, LOCKU4args args, nfs_resop4 result) throws IOException {
        context.currentInode();
        StateId lock = StateId.of(args.lock_stateid);
        OpenStateTable opens = context.server().state().opens();
        OwnerSequence owner = opens.ownerOf(lock);
        owner.run(context, args.seqid, nfs_opnum4.OP_LOCKU, result, () -> {
            Locks.Request request = Locks.Request.of(context, owner.client(), args.locktype, args.offset, args.length);
            result.body = opens.unlock(owner.client(), lock, request.file(), request.range()).toWire();
        });
    }
}
