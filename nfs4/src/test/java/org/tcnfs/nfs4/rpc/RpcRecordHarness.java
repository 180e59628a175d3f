package org.tcnfs.nfs4.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.CompletionHandler;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.rpc.ReplyQueue;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcException;
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
 * Test harness: hands one RPC record (the bytes after the record marker) to oncrpc4j and {@link NfsRpcService}
 * the way the server's filter chain does (oncrpc4j's {@code RpcProtocolFilter}: xid, message type,
 * {@link RpcCall#accept()}, a reject for an {@link RpcException}, no reply for a header that does not
 * decode; then
 * {@code RpcDispatcher}: program and version, then the service), and records what goes back on the wire.
 *
 * <p>The service runs over an engine without operations (every operation answers NFS4ERR_NOTSUPP), so that
 * nothing a record does stays behind for the next one; what is exercised is the call header, the
 * credential, the COMPOUND decoding and the reply.
 */
final class RpcRecordHarness {

    /** A check that sees a record before oncrpc4j parses it and may refuse it (then oncrpc4j never sees it). */
    @FunctionalInterface
    interface FrontCheck {
        /** Whether {@code record} may go on to oncrpc4j. */
        boolean admits(byte[] record);
    }

    /** What became of a record. */
    enum Outcome {
        /** Refused by the {@link FrontCheck}. */
        REFUSED_IN_FRONT,
        /** Not an RPC call oncrpc4j could read: dropped without a reply (oncrpc4j logs it). */
        DROPPED,
        /** A reply: a reject, PROG_UNAVAIL/PROG_MISMATCH, or the NFS program's answer. */
        REPLIED
    }

    private static final ServerContext SERVER = new ServerContext((credential, client) -> new InMemoryFileSystem(),
            new StateHandler(NfsLimits.DEFAULTS, Clock.systemUTC()), NfsLimits.DEFAULTS, Clock.systemUTC());
    private static final CompoundEngine ENGINE =
            new CompoundEngine(OperationExecutor.of(Map.of()), List.of(), Set.of(0, 1));

    private final FrontCheck front;
    private final NfsRpcService service = new NfsRpcService(SERVER, ENGINE, () -> true);
    private final CapturingTransport transport = new CapturingTransport();

    RpcRecordHarness(FrontCheck front) {
        this.front = front;
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
        if (!front.admits(record)) {
            return Outcome.REFUSED_IN_FRONT;
        }
        Xdr xdr = new Xdr(record);
        RpcCall call;
        try {
            xdr.beginDecoding();
            int xid = xdr.xdrDecodeInt();
            int type = xdr.xdrDecodeInt();
            if (type != 0) {
                return Outcome.DROPPED; // a reply to a call this server never made, or no message at all
            }
            call = new RpcCall(xid, xdr, transport);
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
        public void startTLS() {
            // what oncrpc4j's GrizzlyRpcTransport does on a server built without TLS (no StartTlsFilter)
            throw new java.util.NoSuchElementException("No value present");
        }

        @Override
        public boolean isTLS() {
            return false;
        }
    }
}
