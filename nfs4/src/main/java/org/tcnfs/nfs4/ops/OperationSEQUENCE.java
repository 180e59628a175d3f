package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.compound.ReplySizeLimit;
import org.tcnfs.nfs4.compound.TcnfsMdc;
import org.tcnfs.nfs4.state.ChannelAttributes;
import org.tcnfs.nfs4.state.NfsSession;
import org.tcnfs.nfs4.state.SequenceRequest;
import org.tcnfs.nfs4.state.SessionId;
import org.tcnfs.nfs4.state.SlotTable;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.SEQUENCE4args;
import org.tcnfs.nfs4.xdr.SEQUENCE4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * SEQUENCE (RFC 8881 18.46): puts the compound into its session and slot.
 *
 * <p>A new request renews the lease, and its complete reply is stored in the slot when the engine is done
 * ({@link CompoundContext#setReplyCache}), kept whole when {@code sa_cachethis} is set or the compound is
 * SEQUENCE alone. A retransmission is answered with the stored reply ({@link CompoundContext#setReplay}) and
 * never runs again; one whose reply was not kept gets NFS4ERR_RETRY_UNCACHED_REP. The engine already
 * ensures SEQUENCE comes first. The reply of a new request is held to the session's
 * {@code ca_maxresponsesize}, and to {@code ca_maxresponsesize_cached} when {@code sa_cachethis} is set
 * ({@link ReplySizeLimit}; SEQUENCE's own result counts too). The status flags are always zero: no state is ever revoked and no callback
 * path is promised.
 */
public final class OperationSEQUENCE implements NfsOperation {
    private static final Logger LOG = LoggerFactory.getLogger(OperationSEQUENCE.class);

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        SEQUENCE4args args = (SEQUENCE4args) op.args;
        SequenceRequest request = new SequenceRequest(SessionId.of(args.sa_sessionid), args.sa_sequenceid,
                args.sa_slotid, args.sa_highest_slotid, args.sa_cachethis, context.requestFingerprint());

        LOG.debug("SEQUENCE slot {} seq {} highest {} cachethis {} ops {}", Integer.toUnsignedString(args.sa_slotid),
                Integer.toUnsignedString(args.sa_sequenceid), args.sa_highest_slotid, args.sa_cachethis,
                context.opCount());
        StateHandler state = context.server().state();
        StateHandler.Sequenced sequenced = state.sequence(request, context.opCount(), context.requestBytes());
        NfsSession session = sequenced.session();
        context.setSession(session);
        MDC.put(TcnfsMdc.SESSION, session.id().toString());

        if (sequenced.admission() instanceof SlotTable.Retransmission retransmission) {
            COMPOUND4res cached = retransmission.reply();
            if (cached.resarray.length > 0) {
                result.body = cached.resarray[0].body;
            }
            context.setReplay(cached);
            return;
        }
        SlotTable.NewRequest admitted = (SlotTable.NewRequest) sequenced.admission();
        int highest = session.slots().highestSlotId();
        SEQUENCE4resok res = new SEQUENCE4resok();
        res.sr_sessionid = session.id().toWire();
        res.sr_sequenceid = admitted.sequenceId();
        res.sr_slotid = admitted.slotId();
        res.sr_highest_slotid = highest;
        res.sr_target_highest_slotid = highest;
        res.sr_status_flags = 0;
        result.body = res;
        ChannelAttributes fore = session.foreChannel();
        context.setReplySizeLimit(new ReplySizeLimit(context.tag(), fore.maxResponseSize(),
                args.sa_cachethis ? fore.maxResponseSizeCached() : fore.maxResponseSize()));
        context.setReplyCache(reply -> state.completeRequest(session, admitted, reply));
    }
}
