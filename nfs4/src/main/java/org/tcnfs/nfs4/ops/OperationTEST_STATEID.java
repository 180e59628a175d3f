package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.NfsClient;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.xdr.TEST_STATEID4args;
import org.tcnfs.nfs4.xdr.TEST_STATEID4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * TEST_STATEID (RFC 8881 18.48): one status per stateid, in order: NFS4_OK for a usable open or lock
 * stateid of the session's client, NFS4ERR_OLD_STATEID for an older seqid, NFS4ERR_BAD_STATEID for
 * special stateids, unknown ones, those of other clients and newer seqids. Needs no file handle.
 */
public final class OperationTEST_STATEID implements NfsOperation {

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        TEST_STATEID4args args = (TEST_STATEID4args) op.args;
        NfsClient client = OpenStateTable.clientOf(context);
        OpenStateTable opens = context.server().state().opens();
        int[] codes = new int[args.ts_stateids.length];
        for (int i = 0; i < codes.length; i++) {
            codes[i] = opens.test(client, StateId.of(args.ts_stateids[i])).code();
        }
        result.body = new TEST_STATEID4resok(codes);
    }
}
