package org.tcnfs.nfs4.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.CompletionHandler;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.rpc.ReplyQueue;
import org.dcache.oncrpc4j.rpc.RpcAuthError;
import org.dcache.oncrpc4j.rpc.RpcAuthException;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcException;
import org.dcache.oncrpc4j.rpc.RpcRejectStatus;
import org.dcache.oncrpc4j.rpc.RpcTransport;
import org.dcache.oncrpc4j.xdr.BadXdrOncRpcException;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.tcnfs.nfs4.compound.CompoundEngine;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.compound.OperationExecutor;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;

/**
 * Test harness: hands one RPC record (the bytes after the record marker) to the server's code the way its
 * filter chain does ({@link RpcCallFilter}: {@link RpcCredentialCheck} on the first
 * {@link RpcCallFilter#HEADER_VIEW_BYTES} bytes, xid and message type, an AUTH_ERROR reject for a refused
 * credential, then oncrpc4j's {@link RpcCall#accept()}, a reject for an {@link RpcException}, no reply for a
 * header that does not decode; then the program and version, then the service), and records what goes back
 * on the wire. Unlike the filter it lets any other exception out of oncrpc4j's decoding through (the filter
 * logs it and drops the call), so that a fuzz target sees it.
 *
 * <p>The service runs over an engine without operations (every operation answers NFS4ERR_NOTSUPP), so that
 * nothing a record does stays behind for the next one; what is exercised is the call header, the
 * credential, the COMPOUND decoding and the reply.
 */
final class RpcRecordHarness {

    /** What became of a record. */
    enum Outcome {
        /** Refused by {@link RpcCredentialCheck} (answered AUTH_ERROR; oncrpc4j decoded no credential). */
        REFUSED_IN_FRONT,
        /** Not an RPC call oncrpc4j could read: dropped without a reply (oncrpc4j logs it). */
        DROPPED,
        /** A reply: a reject, PROG_UNAVAIL/PROG_MISMATCH, or the NFS program's answer. */
        REPLIED
    }

    /** {@code auth_stat} AUTH_FAILED (RFC 5531: reason unknown). */
    static final int AUTH_FAILED = 7;
    private static final ServerContext SERVER = new ServerContext((credential, client) -> new InMemoryFileSystem(),
            new StateHandler(NfsLimits.DEFAULTS, Clock.systemUTC()), NfsLimits.DEFAULTS, Clock.systemUTC());
    private static final CompoundEngine ENGINE =
            new CompoundEngine(OperationExecutor.of(Map.of()), List.of(), Set.of(0, 1));

    private final boolean checked;
    private final NfsRpcService service = new NfsRpcService(SERVER, ENGINE, () -> true);
    private final CapturingTransport transport = new CapturingTransport();
    private RpcCredentialCheck.Verdict lastVerdict = RpcCredentialCheck.Verdict.PASS;

    private RpcRecordHarness(boolean checked) {
        this.checked = checked;
    }

    /** As the server runs: the credential check in front of oncrpc4j. */
    static RpcRecordHarness asTheServerRuns() {
        return new RpcRecordHarness(true);
    }

    /** oncrpc4j alone, without the check in front: to show what the check keeps from it. */
    static RpcRecordHarness withoutTheCheck() {
        return new RpcRecordHarness(false);
    }

    /** The check's verdict on the last record (PASS without the check). */
    RpcCredentialCheck.Verdict lastVerdict() {
        return lastVerdict;
    }

    /** The replies sent so far, each the bytes of one RPC reply message. */
    List<byte[]> replies() {
        return transport.sent;
    }

    /**
     * Delivers {@code record}.
     *
     * @throws IOException only if the service itself failed in a way the server does not handle
     */
    Outcome receive(byte[] record) throws IOException {
        lastVerdict = checked
                ? RpcCredentialCheck.check(
                        ByteBuffer.wrap(record, 0, Math.min(record.length, RpcCallFilter.HEADER_VIEW_BYTES)))
                : RpcCredentialCheck.Verdict.PASS;
        Xdr xdr = new Xdr(record.clone()); // oncrpc4j may write the reply over the bytes of the call
        RpcCall call;
        try {
            xdr.beginDecoding();
            int xid = xdr.xdrDecodeInt();
            int type = xdr.xdrDecodeInt();
            if (type != 0) {
                return Outcome.DROPPED; // a reply to a call this server never made, or no message at all
            }
            call = new RpcCall(xid, xdr, transport);
            if (!lastVerdict.passes()) {
                call.reject(RpcRejectStatus.AUTH_ERROR, new RpcAuthError(lastVerdict.authStat()));
                return Outcome.REFUSED_IN_FRONT;
            }
            try {
                call.accept();
            } catch (RpcException e) {
                call.reject(e.getStatus(), e.getRpcReply());
                return Outcome.REPLIED;
            }
        } catch (OncRpcException | BadXdrOncRpcException e) {
            // the filter lets a short header end the connection, and logs and skips other undecodable calls
            return Outcome.DROPPED;
        }
        if (call.getProgram() != NfsRpcService.NFS_PROGRAM) {
            call.failProgramUnavailable();
        } else if (call.getProgramVersion() != NfsRpcService.NFS_V4) {
            call.failProgramMismatch(NfsRpcService.NFS_V4, NfsRpcService.NFS_V4);
        } else {
            service.dispatchOncRpcCall(call);
        }
        return Outcome.REPLIED;
    }

    /** A connection that keeps what is sent on it. */
    private static final class CapturingTransport implements RpcTransport {
        private final List<byte[]> sent = new ArrayList<>();
        private final InetSocketAddress peer = new InetSocketAddress("192.0.2.1", 700);

        @Override
        public <A> void send(Xdr xdr, A attachment, CompletionHandler<Integer, ? super A> handler) {
            var buffer = xdr.asBuffer();
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            sent.add(bytes);
            handler.completed(bytes.length, attachment);
        }

        @Override
        public ReplyQueue getReplyQueue() {
            return null;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public InetSocketAddress getLocalSocketAddress() {
            return new InetSocketAddress("192.0.2.2", 2049);
        }

        @Override
        public InetSocketAddress getRemoteSocketAddress() {
            return peer;
        }

        @Override
        public RpcTransport getPeerTransport() {
            return this;
        }

        @Override
        public void startTLS() throws RpcAuthException {
            // what oncrpc4j 3.4.2's GrizzlyRpcTransport does on a server without TLS (no StartTlsFilter): the
            // call is then rejected with AUTH_ERROR/AUTH_FAILED, as the server answers it on the wire
            throw new RpcAuthException("SSL is not configured", new RpcAuthError(AUTH_FAILED));
        }

        @Override
        public boolean isTLS() {
            return false;
        }
    }
}
