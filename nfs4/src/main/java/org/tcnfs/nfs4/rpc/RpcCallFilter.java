package org.tcnfs.nfs4.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import org.dcache.oncrpc4j.grizzly.GrizzlyRpcTransport;
import org.dcache.oncrpc4j.rpc.OncRpcProgram;
import org.dcache.oncrpc4j.rpc.ReplyQueue;
import org.dcache.oncrpc4j.rpc.RpcAuthError;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcDispatchable;
import org.dcache.oncrpc4j.rpc.RpcException;
import org.dcache.oncrpc4j.rpc.RpcRejectStatus;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.WriteHandler;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.log.RateLimitedLog;

/**
 * Turns a whole RPC record into a call and runs it or hands it to a worker: the credential is checked by
 * {@link RpcCredentialCheck} before oncrpc4j decodes it (a refused one is answered AUTH_ERROR here, and the
 * connection goes on), then the call header is decoded. A NULL is answered here, on the network thread; so is a
 * short COMPOUND ({@link InlineCompounds}) while no request is with the workers. Every other request
 * goes to the {@link RequestScheduler}; when no worker is free the connection is suspended (not read) until one
 * takes it, and likewise while the replies queued for the connection exceed Grizzly's limit (a client that does
 * not read its replies), or the replies not yet sent over all connections exceed the {@link ReplyBudget}.
 * Replies and anything that is not a call are dropped. The record's bytes are released from the
 * {@link RecordBudget} when the request is answered or dropped.
 */
final class RpcCallFilter extends BaseFilter {
    private static final Logger LOG = LoggerFactory.getLogger(RpcCallFilter.class);
    private static final RateLimitedLog REFUSED = RateLimitedLog.of(LOG, 10, Duration.ofSeconds(10));
    private static final RateLimitedLog BAD_CALL = RateLimitedLog.of(LOG, 10, Duration.ofSeconds(10));
    private static final int CALL = 0;
    /** Enough for the call header, a credential and a verifier of at most 400 bytes each. */
    static final int HEADER_VIEW_BYTES = 1024;

    private final Map<OncRpcProgram, RpcDispatchable> programs;
    private final RequestScheduler scheduler;
    private final RecordBudget budget;
    private final RpcRecordFilter records;
    private final ReplyQueue replies;
    private final Executor network;
    private final ReplyBudget replyBudget;
    private final LongAdder inline = new LongAdder();
    private final LongAdder inlineChanged = new LongAdder();
    private final InlineTurns turns = new InlineTurns();
    private final BooleanSupplier inlineAllowed;
    private final NfsServer.InlineChanges inlineChanges;

    RpcCallFilter(Map<OncRpcProgram, RpcDispatchable> programs, RequestScheduler scheduler, RecordBudget budget,
            RpcRecordFilter records, ReplyQueue replies, Executor network, ReplyBudget replyBudget,
            BooleanSupplier inlineAllowed, NfsServer.InlineChanges inlineChanges) {
        this.programs = Map.copyOf(programs);
        this.scheduler = scheduler;
        this.budget = budget;
        this.records = records;
        this.replies = replies;
        this.network = network;
        this.replyBudget = replyBudget;
        this.inlineAllowed = inlineAllowed;
        this.inlineChanges = inlineChanges;
    }

    /** COMPOUNDs run on the network thread that read them ({@link InlineCompounds}), of either kind. */
    long inlineCompounds() {
        return inline.sum() + inlineChanged.sum();
    }

    /** Of {@link #inlineCompounds()}, those that change something ({@link InlineCompounds.Kind#CHANGES}). */
    long inlineChanges() {
        return inlineChanged.sum();
    }

    @Override
    @SuppressWarnings("unchecked")
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        RpcRecordFilter.RpcRecord record = ctx.getMessage();
        boolean handedOver = false;
        try {
            Connection<InetSocketAddress> connection = ctx.getConnection();
            Xdr xdr = record.xdr();
            Buffer body = xdr.asBuffer();
            RpcCredentialCheck.Verdict verdict = RpcCredentialCheck.check(
                    body.toByteBuffer(body.position(), Math.min(body.limit(), body.position() + HEADER_VIEW_BYTES)));
            xdr.beginDecoding();
            int xid;
            int type;
            try {
                xid = xdr.xdrDecodeInt();
                type = xdr.xdrDecodeInt();
            } catch (IOException | RuntimeException e) {
                BAD_CALL.info("dropping an RPC message of {} bytes from {}: too short", record.bytes(),
                        connection.getPeerAddress());
                return ctx.getStopAction();
            }
            if (type != CALL) {
                BAD_CALL.info("dropping an RPC message of type {} from {}: not a call", type,
                        connection.getPeerAddress());
                return ctx.getStopAction();
            }
            RpcCall call = new RpcCall(xid, xdr, new GrizzlyRpcTransport(connection, replies));
            if (!verdict.passes()) {
                REFUSED.warn("refusing an RPC call from {} with AUTH_ERROR {}: {}", connection.getPeerAddress(),
                        verdict.authStat(), verdict.reason());
                call.reject(RpcRejectStatus.AUTH_ERROR, new RpcAuthError(verdict.authStat()));
                return ctx.getStopAction();
            }
            try {
                call.accept();
            } catch (RpcException e) {
                REFUSED.warn("refusing an RPC call from {}: {}", connection.getPeerAddress(), e.getMessage());
                call.reject(e.getStatus(), e.getRpcReply());
                return ctx.getStopAction();
            } catch (IOException | RuntimeException e) {
                BAD_CALL.info("dropping an undecodable RPC call from {}: {}", connection.getPeerAddress(),
                        e.toString());
                return ctx.getStopAction();
            }
            RpcDispatchable program = programs.get(new OncRpcProgram(call.getProgram(), call.getProgramVersion()));
            if (program == null) {
                call.failProgramUnavailable();
                return ctx.getStopAction();
            }
            boolean ping = call.getProcedure() == 0;
            // a small plain COMPOUND is decoded here, to judge whether it may run on this thread
            NfsRpcService.DecodedCompound decoded = !ping && record.bytes() <= InlineCompounds.MAX_DECODED_RECORD_BYTES
                    && program instanceof NfsRpcService nfs ? nfs.decodePlainCompound(call) : null;
            Runnable work = decoded != null ? decoded : () -> run(program, call);
            Runnable request = () -> {
                try {
                    work.run();
                } finally {
                    budget.add(-record.bytes());
                }
            };
            handedOver = true;
            if (!connection.canWrite()) {
                // the client does not read its replies: read no more requests from it until they are written
                records.parked(connection, true);
                ctx.suspend();
                connection.notifyCanWrite(new WriteHandler() {
                    @Override
                    public void onWritePossible() {
                        network.execute(() -> dispatchSuspended(ctx, connection, request, ping));
                    }

                    @Override
                    public void onError(Throwable t) {
                        budget.add(-record.bytes());
                    }
                });
                return ctx.getSuspendAction();
            }
            Runnable reserving = () -> {
                try {
                    request.run();
                } finally {
                    replyBudget.unreserve();
                }
            };
            if (ping) {
                // a NULL (a ping) is answered here at once: it never waits for a worker
                request.run();
                return ctx.getStopAction();
            }
            if (decoded != null && !record.followed() && runInline(decoded, record.bytes(), reserving)) {
                return ctx.getStopAction();
            }
            if (!replyBudget.tryReserve()) {
                // replies of all connections together (sent or not yet, of requests taken) would pass the
                // budget: take no request until they drain (ReplyBudget closes the connections that never read
                // theirs), then a few at a time
                records.parked(connection, true);
                ctx.suspend();
                replyBudget.whenBelow(
                        () -> network.execute(() -> dispatchSuspended(ctx, connection, reserving, false)));
                return ctx.getSuspendAction();
            }
            if (scheduler.offer(reserving)) {
                return ctx.getStopAction();
            }
            records.parked(connection, true);
            ctx.suspend();
            scheduler.park(reserving, () -> resume(ctx, connection));
            network.execute(scheduler::drain);
            return ctx.getSuspendAction();
        } finally {
            if (!handedOver) {
                budget.add(-record.bytes());
            }
        }
    }

    /**
     * Runs {@code request}, the short compound {@code decoded} (a record of {@code recordBytes}) of a client that
     * waits for it, here if it may ({@link InlineCompounds}): it gets its turn among the inline compounds
     * ({@link InlineTurns}), no request is with the workers (so none holds a lock it would wait for), the hooks'
     * guards agree and its reply fits the budget. Spares the wake-up of a worker and the hand-back (issue 16).
     * False, having done nothing, otherwise.
     */
    private boolean runInline(NfsRpcService.DecodedCompound decoded, int recordBytes, Runnable request) {
        InlineCompounds.Kind kind = decoded.inlineKind(recordBytes);
        boolean changes = kind == InlineCompounds.Kind.CHANGES;
        if (kind == InlineCompounds.Kind.WORKER || !(changes ? turns.tryChange() : turns.tryRead())) {
            return false;
        }
        try {
            if (!scheduler.idle() || !inlineAllowed.getAsBoolean()
                    || (changes && !decoded.changesAllowedBy(inlineChanges)) || !replyBudget.tryReserve()) {
                return false;
            }
            (changes ? inlineChanged : inline).increment();
            request.run();
            return true;
        } finally {
            if (changes) {
                turns.endChange();
            } else {
                turns.endRead();
            }
        }
    }

    /** Hands {@code request}, whose connection is suspended, to a worker or parks it; reading resumes after. */
    private void dispatchSuspended(FilterChainContext ctx, Connection<?> connection, Runnable request, boolean ping) {
        if (ping) {
            request.run();
            resume(ctx, connection);
        } else if (scheduler.offer(request)) {
            resume(ctx, connection);
        } else {
            scheduler.park(request, () -> resume(ctx, connection));
            scheduler.drain();
        }
    }

    private void resume(FilterChainContext ctx, Connection<?> connection) {
        records.parked(connection, false);
        ctx.resume(ctx.getStopAction());
    }

    private static void run(RpcDispatchable program, RpcCall call) {
        try {
            program.dispatchOncRpcCall(call);
        } catch (RpcException e) {
            call.reject(e.getStatus(), e.getRpcReply());
            BAD_CALL.warn("RPC call rejected: {}", e.getMessage());
        } catch (IOException e) {
            call.failRpcGarbage();
            BAD_CALL.warn("undecodable RPC call: {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("RPC call failed", e);
            call.failRpcSystem();
        }
    }
}
