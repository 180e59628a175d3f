package org.tcnfs.nfs4.ops;

import static org.tcnfs.nfs4.xdr.channel_dir_from_client4.*;
import static org.tcnfs.nfs4.xdr.channel_dir_from_server4.*;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.NfsSession;
import org.tcnfs.nfs4.state.SessionId;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.NotOnlyOpException;
import org.tcnfs.nfs4.xdr.BIND_CONN_TO_SESSION4args;
import org.tcnfs.nfs4.xdr.BIND_CONN_TO_SESSION4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * BIND_CONN_TO_SESSION (RFC 8881 18.34): records the request's connection as bound to the session. It
 * must be the only operation of its compound. FORE binds the fore channel, BACK the back channel,
 * FORE_OR_BOTH and BACK_OR_BOTH both (the back channel is accepted though no callbacks are sent yet); RDMA mode is never used.
 */
public final class OperationBIND_CONN_TO_SESSION implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        BIND_CONN_TO_SESSION4args args = (BIND_CONN_TO_SESSION4args) op.args;
        SessionId id = SessionId.of(args.bctsa_sessid);
        int dir = switch (args.bctsa_dir) {
            case CDFC4_FORE -> CDFS4_FORE;
            case CDFC4_BACK -> CDFS4_BACK;
            case CDFC4_FORE_OR_BOTH, CDFC4_BACK_OR_BOTH -> CDFS4_BOTH;
            default -> throw new InvalException("channel direction " + args.bctsa_dir);
        };
        if (context.opCount() != 1) {
            throw new NotOnlyOpException("BIND_CONN_TO_SESSION must be alone in its compound");
        }

        NfsSession session = context.server().state().session(id);
        session.bindConnection(context.connection());

        BIND_CONN_TO_SESSION4resok res = new BIND_CONN_TO_SESSION4resok();
        res.bctsr_sessid = session.id().toWire();
        res.bctsr_dir = dir;
        res.bctsr_use_conn_in_rdma_mode = false;
        result.body = res;
    }
}
