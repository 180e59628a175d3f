package org.tcnfs.nfs4.compound;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.BadXdrOncRpcException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.log.RateLimitedLog;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.XdrSizeCounter;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * Runs one operation: finds its {@link NfsOperation} and turns whatever it throws into a status.
 *
 * <p>This is the single place where exceptions become NFS statuses. An {@link NfsException} gives its own
 * status (client faults are logged at debug, server faults at error); a decoding failure inside an
 * operation is NFS4ERR_BADXDR; any other {@code IOException} is NFS4ERR_IO and anything else
 * NFS4ERR_SERVERFAULT, both logged at error with the stack trace. It also counts each result against the
 * compound's {@link ReplySizeLimit}, and fails the result that does not fit.
 */
public final class OperationExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(OperationExecutor.class);
    /** Clients can send undecodable arguments as fast as they like: at most 10 lines per 10 s, with a count. */
    private static final RateLimitedLog UNDECODABLE = RateLimitedLog.of(LOG, 10, Duration.ofSeconds(10));

    private final Map<Integer, NfsOperation> operations;

    private OperationExecutor(Map<Integer, NfsOperation> operations) {
        this.operations = Map.copyOf(operations);
    }

    /** An executor for exactly the given operations. */
    public static OperationExecutor of(Map<Integer, NfsOperation> operations) {
        return new OperationExecutor(new HashMap<>(operations));
    }

    /** Whether an operation is implemented. */
    public boolean implementsOp(int opcode) {
        return operations.containsKey(opcode);
    }

    /** Runs {@code op} and returns its result; never throws. */
    public nfs_resop4 execute(CompoundContext context, nfs_argop4 op) {
        nfs_resop4 result = new nfs_resop4(op.argop, NfsStatus.OK.code(), null);
        if (op.argop == nfs_opnum4.OP_ILLEGAL) {
            result.status = NfsStatus.OP_ILLEGAL.code();
            return result;
        }
        NfsOperation operation = operations.get(op.argop);
        if (operation == null) {
            result.status = NfsStatus.NOTSUPP.code();
            return result;
        }
        try {
            operation.process(context, op, result);
            if (LOG.isDebugEnabled()) {
                LOG.debug("{}: {}", nfs_opnum4.name(op.argop), NfsStatus.nameOf(result.status));
            }
        } catch (NfsException e) {
            fail(result, e.status());
            if (e.status() == NfsStatus.SERVERFAULT) {
                LOG.error("{} failed: {}", nfs_opnum4.name(op.argop), e.getMessage(), e);
            } else {
                LOG.debug("{}: {} ({})", nfs_opnum4.name(op.argop), e.status(), e.getMessage());
            }
        } catch (OncRpcException | BadXdrOncRpcException e) {
            fail(result, NfsStatus.BADXDR);
            UNDECODABLE.warn("{}: undecodable arguments: {}", nfs_opnum4.name(op.argop), e.getMessage());
        } catch (IOException e) {
            fail(result, NfsStatus.IO);
            LOG.error("{} failed with an I/O error", nfs_opnum4.name(op.argop), e);
        } catch (RuntimeException e) {
            fail(result, NfsStatus.SERVERFAULT);
            LOG.error("{} failed with a server fault", nfs_opnum4.name(op.argop), e);
        }
        chargeReplySize(context, result);
        return result;
    }

    /**
     * Counts {@code result} against the compound's reply size limit, if it has one; a result that does not
     * fit fails with REP_TOO_BIG or REP_TOO_BIG_TO_CACHE (RFC 8881 2.10.6.4), so the compound ends here.
     */
    private static void chargeReplySize(CompoundContext context, nfs_resop4 result) {
        ReplySizeLimit limit = context.replySizeLimit();
        if (limit == null) {
            return;
        }
        try {
            NfsStatus over = limit.charge(XdrSizeCounter.sizeOf(result));
            if (over != null) {
                LOG.debug("{}: {} (reply would exceed the session's limit, {} bytes used)",
                        nfs_opnum4.name(result.resop), over, limit.used());
                fail(result, over);
                limit.chargeAnyway(XdrSizeCounter.sizeOf(result));
            }
        } catch (IOException e) {
            fail(result, NfsStatus.SERVERFAULT);
            LOG.error("{}: the result cannot be encoded", nfs_opnum4.name(result.resop), e);
        }
    }

    /** Sets a failure status without a body (for statuses raised outside an operation, such as by hooks). */
    public static void fail(nfs_resop4 result, NfsStatus status) {
        result.status = status.code();
        result.body = null;
    }

    /** The status for an exception thrown outside an operation (hooks); logs server faults. */
    public static NfsStatus statusOf(Exception e, String where) {
        if (e instanceof NfsException ne) {
            return ne.status();
        }
        LOG.error("{} failed", where, e);
        return e instanceof IOException ? NfsStatus.IO : NfsStatus.SERVERFAULT;
    }
}
