package org.tcnfs.nfs4.ops;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN_CONFIRM;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.OwnerSequence;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.OPEN_CONFIRM4args;
import org.tcnfs.nfs4.xdr.OPEN_CONFIRM4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * OPEN_CONFIRM (RFC 7530 16.18), NFSv4.0 only: confirms the open owner of an OPEN that answered
 * OPEN4_RESULT_CONFIRM, in sequence with the owner's seqid (a retransmission gets the cached reply); the
 * open's new stateid is the result. The stateid must be that open's, current, and of the current file
 * (else NFS4ERR_BAD_STATEID or NFS4ERR_OLD_STATEID); an owner that is confirmed already is
 * NFS4ERR_BAD_STATEID.
 */
public final class OperationOPEN_CONFIRM implements NfsOperation {

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        OPEN_CONFIRM4args args = (OPEN_CONFIRM4args) op.args;
        Inode file = context.currentInode();
        StateId stateId = StateId.of(args.open_stateid);
        OpenStateTable opens = context.server().state().opens();
        OwnerSequence owner = opens.ownerOf(stateId);
        owner.run(context, args.seqid, OP_OPEN_CONFIRM, result, () -> {
            StateId confirmed = opens.confirmOpen(owner.client(), stateId, file);
            result.body = new OPEN_CONFIRM4resok(confirmed.toWire());
        });
    }
}
