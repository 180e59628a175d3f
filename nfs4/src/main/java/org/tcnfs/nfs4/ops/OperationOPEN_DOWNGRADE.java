package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.NfsClient;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.OwnerSequence;
import org.tcnfs.nfs4.state.ShareMode;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN_DOWNGRADE4args;
import org.tcnfs.nfs4.xdr.OPEN_DOWNGRADE4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * OPEN_DOWNGRADE (RFC 8881 18.18): the open on the current file keeps a smaller share reservation, which
 * must be exactly the union of share modes that some of the owner's OPENs asked for (else NFS4ERR_INVAL).
 * Delegation wishes in the access bits are ignored. The open's new stateid is the result and the current
 * stateid.
 */
public final class OperationOPEN_DOWNGRADE implements NfsOperation {
    private static final int WANT_BITS = OPEN4args.OPEN4_SHARE_ACCESS_WANT_DELEG_MASK
            | OPEN4args.OPEN4_SHARE_ACCESS_WANT_SIGNAL_DELEG_WHEN_RESRC_AVAIL
            | OPEN4args.OPEN4_SHARE_ACCESS_WANT_PUSH_DELEG_WHEN_UNCONTENDED;

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        OPEN_DOWNGRADE4args args = (OPEN_DOWNGRADE4args) op.args;
        Inode file = context.currentInode();
        if (context.minorVersion() == 0) {
            processNfs40(context, args, file, result);
            return;
        }
        NfsClient client = OpenStateTable.clientOf(context);
        ShareMode target = ShareMode.of(args.share_access & ~WANT_BITS, args.share_deny);
        StateId stateId = OpenStateTable.resolve(context, StateId.of(args.open_stateid));
        StateId downgraded = context.server().state().opens().downgrade(client, stateId, file, target);
        context.setCurrentStateId(downgraded);
        result.body = new OPEN_DOWNGRADE4resok(downgraded.toWire());
    }

    /**
     * NFSv4.0 (RFC 7530 16.19): in sequence with the open owner's seqid (a retransmission gets the original
     * reply); the share access has no delegation wishes (NFS4ERR_INVAL); the client is the stateid's, and
     * its lease is renewed.
     */
    private static void processNfs40(CompoundContext context, OPEN_DOWNGRADE4args args, Inode file,
            nfs_resop4 result) throws IOException {
        StateId stateId = StateId.of(args.open_stateid);
        OpenStateTable opens = context.server().state().opens();
        OwnerSequence owner = opens.ownerOf(stateId);
        owner.run(context, args.seqid, nfs_opnum4.OP_OPEN_DOWNGRADE, result, () -> {
            ShareMode target = ShareMode.of(args.share_access, args.share_deny);
            StateId downgraded = opens.downgrade(owner.client(), stateId, file, target);
            result.body = new OPEN_DOWNGRADE4resok(downgraded.toWire());
        });
    }
}
