package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.NfsClient;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.OwnerSequence;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.CLOSE4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * CLOSE (RFC 8881 18.2): ends the open named by the stateid (the current-stateid marker allowed) on the
 * current file, releasing its share reservation. Lock states opened through it are released with their
 * byte-range locks, as RFC 8881 18.2.4 allows, rather than answering NFS4ERR_LOCKS_HELD. The result, and
 * the new current stateid, is the invalid special stateid (RFC 8881 8.2.3), which no later operation
 * accepts. A stateid of another file is NFS4ERR_BAD_STATEID. NFSv4.0: see {@link #processNfs40}.
 */
public final class OperationCLOSE implements NfsOperation {

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        CLOSE4args args = (CLOSE4args) op.args;
        Inode file = context.currentInode();
        if (context.minorVersion() == 0) {
            processNfs40(context, args, file, result);
            return;
        }
        NfsClient client = OpenStateTable.clientOf(context);
        StateId stateId = OpenStateTable.resolve(context, StateId.of(args.open_stateid));
        context.server().state().opens().close(client, stateId, file);
        context.setCurrentStateId(StateId.INVALID);
        result.body = StateId.INVALID.toWire();
    }

    /**
     * NFSv4.0 (RFC 7530 16.2): in sequence with the open owner's seqid; a retransmitted CLOSE, even one
     * whose open is gone now, gets the original reply. The result is the open's stateid with its seqid
     * advanced. The client is the stateid's, and its lease is renewed.
     */
    private static void processNfs40(CompoundContext context, CLOSE4args args, Inode file, nfs_resop4 result)
            throws IOException {
        StateId stateId = StateId.of(args.open_stateid);
        OpenStateTable opens = context.server().state().opens();
        OwnerSequence owner = opens.ownerOf(stateId);
        owner.run(context, args.seqid, nfs_opnum4.OP_CLOSE, result,
                () -> result.body = opens.close(owner.client(), stateId, file).toWire());
    }
}
