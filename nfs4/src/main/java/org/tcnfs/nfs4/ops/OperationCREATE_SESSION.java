package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.ChannelAttributes;
import org.tcnfs.nfs4.state.CreateSessionRequest;
import org.tcnfs.nfs4.state.NfsSession;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4args;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * CREATE_SESSION (RFC 8881 18.36): confirms the client record if needed and creates a session, or
 * answers a retransmission of the client's last CREATE_SESSION with the session it made.
 *
 * <p>The fore channel gets, for each limit, the lower of what the client asks and the server's
 * {@link org.tcnfs.nfs4.compound.NfsLimits}; the back channel is accepted as given, and
 * CREATE_SESSION4_FLAG_CONN_BACK_CHAN is granted when asked (clients such as nfs-rs refuse a session without
 * it). The server sends no callbacks yet (it grants no delegations), so the back channel stays idle.
 * PERSIST and CONN_RDMA are never granted.
 */
public final class OperationCREATE_SESSION implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        CREATE_SESSION4args args = (CREATE_SESSION4args) op.args;
        CreateSessionRequest request = new CreateSessionRequest(
                args.csa_clientid,
                args.csa_sequence,
                args.csa_flags,
                ChannelAttributes.of(args.csa_fore_chan_attrs),
                ChannelAttributes.of(args.csa_back_chan_attrs),
                args.csa_cb_program);

        NfsSession session = context.server().state().createSession(request, context.credential().uid());

        CREATE_SESSION4resok res = new CREATE_SESSION4resok();
        res.csr_sessionid = session.id().toWire();
        res.csr_sequence = session.createSequence();
        res.csr_flags = session.flags();
        res.csr_fore_chan_attrs = session.foreChannel().toWire();
        res.csr_back_chan_attrs = session.backChannel().toWire();
        result.body = res;
    }
}
