package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.ChannelAttributes;
import org.tcnfs.nfs4.state.CreateSessionRequest;
import org.tcnfs.nfs4.state.NfsSession;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.TooSmallException;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4args;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * CREATE_SESSION (RFC 8881 18.36): confirms the client record if needed and creates a session, or
 * answers a retransmission of the client's last CREATE_SESSION with the session it made.
 *
 * <p>The fore channel gets, for each limit, the lower of what the client asks and the server's
 * {@link org.tcnfs.nfs4.compound.NfsLimits}; {@code ca_maxresponsesize_cached} is at most
 * {@link org.tcnfs.nfs4.state.SessionLimits#maxCachedReplyBytes()}, and the slot count and cached size
 * shrink when the reply cache budget of all sessions runs short (see {@code ReplyCacheBudget}; 18.36.4 lets
 * the server lower them). Past {@link org.tcnfs.nfs4.state.SessionLimits#maxSessions()} sessions the answer
 * is NFS4ERR_NOSPC, with the client's CREATE_SESSION sequence not used up. The back channel is accepted as given, and
 * CREATE_SESSION4_FLAG_CONN_BACK_CHAN is granted when asked (clients such as nfs-rs refuse a session without
 * it). The server sends no callbacks yet (it grants no delegations), so the back channel stays idle.
 * PERSIST and CONN_RDMA are never granted.
 *
 * <p>Before the client record is touched (so the client's CREATE_SESSION sequence is not used up), flags
 * outside the three RFC 8881 defines are NFS4ERR_INVAL, and a back channel that could not carry even one
 * callback (CB_SEQUENCE plus one operation, in messages of at least
 * {@link ChannelAttributes#MIN_MESSAGE_SIZE} bytes, on at least one slot) is NFS4ERR_TOOSMALL
 * (RFC 8881 18.36.3), whether or not CONN_BACK_CHAN is asked for: the attributes hold for every connection
 * later bound to the back channel.
 */
public final class OperationCREATE_SESSION implements NfsOperation {
    /** The flags RFC 8881 18.36.1 defines. */
    static final int DEFINED_FLAGS = CREATE_SESSION4args.CREATE_SESSION4_FLAG_PERSIST
            | CREATE_SESSION4args.CREATE_SESSION4_FLAG_CONN_BACK_CHAN
            | CREATE_SESSION4args.CREATE_SESSION4_FLAG_CONN_RDMA;

    /** Fewest operations a back channel must allow: CB_SEQUENCE and the callback itself. */
    static final int MIN_BACK_CHANNEL_OPS = 2;

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        CREATE_SESSION4args args = (CREATE_SESSION4args) op.args;
        if ((args.csa_flags & ~DEFINED_FLAGS) != 0) {
            throw new InvalException("undefined CREATE_SESSION flags 0x"
                    + Integer.toHexString(args.csa_flags & ~DEFINED_FLAGS));
        }
        checkBackChannel(ChannelAttributes.of(args.csa_back_chan_attrs));
        CreateSessionRequest request = new CreateSessionRequest(
                args.csa_clientid,
                args.csa_sequence,
                args.csa_flags,
                ChannelAttributes.of(args.csa_fore_chan_attrs),
                ChannelAttributes.of(args.csa_back_chan_attrs),
                args.csa_cb_program);

        NfsSession session = context.server().state().createSession(request, context.credential().uid(),
                context.clientAddress());

        CREATE_SESSION4resok res = new CREATE_SESSION4resok();
        res.csr_sessionid = session.id().toWire();
        res.csr_sequence = session.createSequence();
        res.csr_flags = session.flags();
        res.csr_fore_chan_attrs = session.foreChannel().toWire();
        res.csr_back_chan_attrs = session.backChannel().toWire();
        result.body = res;
    }

    private static void checkBackChannel(ChannelAttributes back) throws TooSmallException {
        if (back.maxRequestSize() < ChannelAttributes.MIN_MESSAGE_SIZE
                || back.maxResponseSize() < ChannelAttributes.MIN_MESSAGE_SIZE) {
            throw new TooSmallException("back channel request or reply size below " + ChannelAttributes.MIN_MESSAGE_SIZE);
        }
        if (back.maxOperations() < MIN_BACK_CHANNEL_OPS || back.maxRequests() < 1) {
            throw new TooSmallException("back channel allows " + back.maxOperations() + " operations on "
                    + back.maxRequests() + " slots");
        }
    }
}
