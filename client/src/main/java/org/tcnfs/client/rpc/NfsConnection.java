package org.tcnfs.client.rpc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.nio.channels.CompletionHandler;
import org.dcache.oncrpc4j.rpc.RpcReply;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.dcache.oncrpc4j.rpc.OncRpcAcceptedException;
import org.dcache.oncrpc4j.rpc.OncRpcClient;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.rpc.OncRpcRejectedException;
import org.dcache.oncrpc4j.rpc.RpcAccepsStatus;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcTransport;
import org.dcache.oncrpc4j.rpc.net.IpProtocolType;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;
import org.dcache.oncrpc4j.xdr.XdrVoid;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.TXN_BEGIN4args;
import org.tcnfs.nfs4.xdr.TXN_BEGIN4res;
import org.tcnfs.nfs4.xdr.TXN_COMPOUND4args;
import org.tcnfs.nfs4.xdr.TXN_END4res;
import org.tcnfs.nfs4.xdr.txnid4;

/**
 * One TCP connection to an NFSv4 server (program 100003, version 4) over oncrpc4j's client mode.
 *
 * <p>Calls are synchronous and may come from several threads at once; replies are matched by xid. Every
 * call carries AUTH_SYS: the connection's default credential or one given per call. A call that gets
 * no reply within the connection's timeout fails with {@link SocketTimeoutException}; a reply other
 * than SUCCESS fails with {@link RpcReplyException}.
 *
 * <pre>{@code
 * try (NfsConnection c = NfsConnection.connect(new InetSocketAddress("127.0.0.1", port), AuthSys.ROOT,
 *         Duration.ofSeconds(30))) {
 *     c.ping();
 *     COMPOUND4res res = c.compound(new CompoundBuilder().putrootfh().getfh().build());
 * }
 * }</pre>
 */
public final class NfsConnection implements AutoCloseable {
    /** The NFS RPC program number. */
    public static final int NFS_PROGRAM = 100003;
    /** NFS version 4. */
    public static final int NFS_V4 = 4;
    /** NFSPROC4_NULL. */
    public static final int PROC_NULL = 0;
    /** NFSPROC4_COMPOUND. */
    public static final int PROC_COMPOUND = 1;
    /** COMPOUND with the transaction flag (the most significant bit) set. */
    public static final int PROC_COMPOUND_TXN = 0x80000000 | PROC_COMPOUND;
    /** TXN_BEGIN: begins a transaction that spans compounds (tcnfs extension, docs/protocol.md). */
    public static final int PROC_TXN_BEGIN = 0x80000010;
    /** TXN_COMPOUND: a COMPOUND inside a transaction that spans compounds. */
    public static final int PROC_TXN_COMPOUND = 0x80000011;
    /** TXN_COMMIT. */
    public static final int PROC_TXN_COMMIT = 0x80000012;
    /** TXN_ABORT. */
    public static final int PROC_TXN_ABORT = 0x80000013;

    private final OncRpcClient client;
    private final RpcTransport transport;
    private final RpcCall rpc;
    private final AuthSys credential;
    private final Duration timeout;
    private final Duration maxWait;

    private NfsConnection(OncRpcClient client, RpcTransport transport, AuthSys credential, Duration timeout,
            Duration maxWait) {
        this.client = client;
        this.transport = transport;
        this.credential = credential;
        this.timeout = timeout;
        this.maxWait = maxWait;
        this.rpc = new RpcCall(NFS_PROGRAM, NFS_V4, credential.toRpcAuth(), transport);
    }

    /** Connects as root with a 60 second call timeout. */
    public static NfsConnection connect(String host, int port) throws IOException {
        return connect(new InetSocketAddress(host, port), AuthSys.ROOT, Duration.ofSeconds(60));
    }

    /**
     * Connects over TCP.
     *
     * @param address the server
     * @param credential the AUTH_SYS identity of calls that name none
     * @param timeout how long to wait for the connection and for each reply
     * @throws UnknownHostException when the host name does not resolve ("cannot resolve host NAME")
     */
    public static NfsConnection connect(InetSocketAddress address, AuthSys credential, Duration timeout)
            throws IOException {
        return connect(address, credential, timeout, timeout);
    }

    /**
     * Connects over TCP; a call whose reply is late keeps waiting while the server shows it is still working on it,
     * for at most {@code maxWait} in all ({@link #call(int, XdrAble, XdrAble, AuthSys, LateReplyProbe)}).
     *
     * @param timeout how long to wait for the connection, for each reply before the server is asked whether it
     *     still works on the call, and for each answer to such a question
     * @param maxWait how long a call waits in all while the server shows it works on it (at least {@code timeout})
     */
    public static NfsConnection connect(InetSocketAddress address, AuthSys credential, Duration timeout,
            Duration maxWait) throws IOException {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(credential, "credential");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        if (maxWait.compareTo(timeout) < 0) {
            throw new IllegalArgumentException("maxWait " + maxWait + " is shorter than the timeout " + timeout);
        }
        if (address.isUnresolved()) {
            // oncrpc4j would throw the unchecked UnresolvedAddressException, which names no host
            throw new UnknownHostException("cannot resolve host " + address.getHostString());
        }
        OncRpcClient client = OncRpcClient.newBuilder()
                .withProtocol(IpProtocolType.TCP)
                .withConnectTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .withServiceName("tcnfs-client-" + address.getPort())
                .build(address);
        RpcTransport transport = client.connect();
        return new NfsConnection(client, transport, credential, timeout, maxWait);
    }

    /** The identity of calls that name none. */
    public AuthSys credential() {
        return credential;
    }

    /** The server's address. */
    public InetSocketAddress remoteAddress() {
        return transport.getRemoteSocketAddress();
    }

    /** How long a call waits for its reply before the server is asked whether it still works on it. */
    public Duration timeout() {
        return timeout;
    }

    /** How long a call waits in all while the server shows it still works on it. */
    public Duration maxWait() {
        return maxWait;
    }

    /** Whether the TCP connection is still open. */
    public boolean isOpen() {
        return transport.isOpen();
    }

    /** NFSPROC4_NULL: returns when the server answered. */
    public void ping() throws IOException {
        call(PROC_NULL, XdrVoid.XDR_VOID, new XdrVoid(), credential);
    }

    /** NFSPROC4_COMPOUND with the connection's credential. */
    public COMPOUND4res compound(COMPOUND4args args) throws IOException {
        return compound(PROC_COMPOUND, args, credential);
    }

    /** NFSPROC4_COMPOUND with the given credential. */
    public COMPOUND4res compound(COMPOUND4args args, AuthSys caller) throws IOException {
        return compound(PROC_COMPOUND, args, caller);
    }

    /**
     * A COMPOUND sent with any procedure number, for instance {@link #PROC_COMPOUND_TXN} to ask for a
     * transaction.
     */
    public COMPOUND4res compound(int procedure, COMPOUND4args args, AuthSys caller) throws IOException {
        COMPOUND4res res = new COMPOUND4res();
        call(procedure, args, res, caller);
        return res;
    }

    /**
     * A COMPOUND whose reply may come late: while it does, {@code probe} asks the server whether it still works
     * on it ({@link #call(int, XdrAble, XdrAble, AuthSys, LateReplyProbe)}).
     */
    public COMPOUND4res compound(int procedure, COMPOUND4args args, AuthSys caller,
            LateReplyProbe<COMPOUND4res> probe) throws IOException {
        return call(procedure, args, new COMPOUND4res(), caller, probe);
    }

    /**
     * TXN_BEGIN (docs/protocol.md): a server without the extension answers PROC_UNAVAIL, thrown as an
     * {@link RpcReplyException}.
     *
     * @param ticket 0, or the ticket of an earlier attempt of the same work (wait-die age)
     */
    public TXN_BEGIN4res txnBegin(long ticket) throws IOException {
        TXN_BEGIN4args args = new TXN_BEGIN4args();
        args.ticket = ticket;
        TXN_BEGIN4res res = new TXN_BEGIN4res();
        call(PROC_TXN_BEGIN, args, res, credential);
        return res;
    }

    /** TXN_COMPOUND: {@code args} inside transaction {@code txnId}. */
    public COMPOUND4res txnCompound(byte[] txnId, COMPOUND4args args, AuthSys caller) throws IOException {
        COMPOUND4res res = new COMPOUND4res();
        call(PROC_TXN_COMPOUND, txnCompoundArgs(txnId, args), res, caller);
        return res;
    }

    /** TXN_COMPOUND whose reply may come late: {@code probe} asks whether the server still works on it. */
    public COMPOUND4res txnCompound(byte[] txnId, COMPOUND4args args, AuthSys caller,
            LateReplyProbe<COMPOUND4res> probe) throws IOException {
        return call(PROC_TXN_COMPOUND, txnCompoundArgs(txnId, args), new COMPOUND4res(), caller, probe);
    }

    private static TXN_COMPOUND4args txnCompoundArgs(byte[] txnId, COMPOUND4args args) {
        TXN_COMPOUND4args wrapped = new TXN_COMPOUND4args();
        wrapped.txnid = new txnid4(txnId.clone());
        wrapped.compound = args;
        return wrapped;
    }

    /**
     * TXN_COMMIT: the status (NFS4_OK iff it committed). A large commit may outlast the timeout: while its reply is
     * late, the call is sent again now and then; the server answers NFS4ERR_DELAY while the commit runs, and the
     * first call's answer once it ended (docs/protocol.md), so the call waits up to {@link #maxWait()}.
     */
    public int txnCommit(byte[] txnId) throws IOException {
        return txnEnd(PROC_TXN_COMMIT, txnId);
    }

    /** TXN_ABORT: the status; waits for a long rollback as {@link #txnCommit} does for a long commit. */
    public int txnAbort(byte[] txnId) throws IOException {
        return txnEnd(PROC_TXN_ABORT, txnId);
    }

    private int txnEnd(int procedure, byte[] txnId) throws IOException {
        txnid4 id = new txnid4(txnId.clone());
        LateReplyProbe<TXN_END4res> again = () -> {
            TXN_END4res res = new TXN_END4res();
            call(procedure, id, res, credential);
            return res.status == NfsStatus.DELAY.code() ? Optional.empty() : Optional.of(res);
        };
        return call(procedure, id, new TXN_END4res(), credential, again).status;
    }

    /**
     * Sends {@code args} as the arguments of {@code procedure}, byte for byte (padded with zeros to a
     * multiple of four, as XDR requires), for malformed-input tests. The RPC header is well formed.
     *
     * @return the accept status and, after SUCCESS, the encoded result
     * @throws RpcReplyException only when the call was denied (MSG_DENIED)
     */
    public RawReply callRaw(int procedure, byte[] args) throws IOException {
        RawBody body = new RawBody();
        try {
            call(procedure, new RawArgs(args.clone()), body, credential);
            return new RawReply(RpcAcceptStatus.SUCCESS, body.bytes);
        } catch (RpcReplyException e) {
            if (e.denied()) {
                throw e;
            }
            return new RawReply(e.acceptStatus().orElseThrow(), new byte[0]);
        }
    }

    /**
     * Sends a call and waits for its reply, patiently: when none came within the timeout, {@code probe} asks the
     * server whether it still works on the call, and the call keeps waiting for its reply (the same xid) as long
     * as the server says so (the probe answers empty: NFS4ERR_DELAY to a retry of the request in progress, RFC
     * 8881 2.10.6.2), for at most {@link #maxWait()} in all. A probe that gets no answer itself within the timeout
     * is followed by a NULL ping (which the server answers on a thread of its own): a server that answers it is
     * alive but busy, and the call keeps waiting; one that does not is silent, and the call gives up. When the
     * probe finds the call finished (the reply cache's answer), that answer is the result unless the call's own
     * reply comes within a further timeout.
     *
     * @return {@code result}, filled from the reply, or the probe's answer
     * @throws NoReplyException when the call gave up without an answer; what it did on the server is unknown
     * @throws java.io.EOFException when the connection closed before the reply came
     */
    public <T extends XdrAble> T call(int procedure, XdrAble args, T result, AuthSys caller, LateReplyProbe<T> probe)
            throws IOException {
        long started = System.nanoTime();
        long deadline = started + maxWait.toNanos();
        CompletableFuture<T> reply = new CompletableFuture<>();
        // oncrpc4j forgets the xid after maxWait plus one timeout: no late reply is awaited for ever
        rpc.call(procedure, args, new CompletionHandler<RpcReply, RpcTransport>() {
            @Override
            public void completed(RpcReply r, RpcTransport transport) {
                try {
                    r.getReplyResult(result);
                    reply.complete(result);
                } catch (IOException | RuntimeException e) {
                    reply.completeExceptionally(e);
                }
            }

            @Override
            public void failed(Throwable t, RpcTransport transport) {
                reply.completeExceptionally(t);
            }
        }, maxWait.plus(timeout).toMillis(), TimeUnit.MILLISECONDS, caller.toRpcAuth());
        int probes = 0;
        int working = 0;
        while (true) {
            long waitNanos = Math.min(timeout.toNanos(), Math.max(0, deadline - System.nanoTime()));
            Optional<T> answered = await(reply, waitNanos, procedure);
            if (answered.isPresent()) {
                return answered.get();
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new NoReplyException(procedure, remoteAddress(), timeout, Duration.ofNanos(System.nanoTime()
                        - started), probes, working, "gave up after the longest wait (" + maxWait.toSeconds()
                        + " s) although the server still answered");
            }
            probes++;
            Optional<T> finished;
            try {
                finished = probe.ask();
            } catch (SocketTimeoutException e) {
                try {
                    ping();
                    finished = Optional.empty(); // alive but busy: its workers did not get to the probe yet
                } catch (SocketTimeoutException silent) {
                    throw new NoReplyException(procedure, remoteAddress(), timeout, Duration.ofNanos(
                            System.nanoTime() - started), probes, working, "the server answered neither the call"
                            + " nor a question whether it still works on it, nor a NULL ping");
                }
            }
            if (finished.isPresent()) {
                Optional<T> own = await(reply, timeout.toNanos(), procedure);
                return own.orElseGet(finished::get);
            }
            working++;
        }
    }

    /** The reply if it came within {@code nanos}; empty if not yet. */
    private <T> Optional<T> await(CompletableFuture<T> reply, long nanos, int procedure) throws IOException {
        try {
            return Optional.of(reply.get(nanos, TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for the reply to procedure 0x"
                    + Integer.toUnsignedString(procedure, 16));
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable t = e.getCause();
            if (t instanceof TimeoutException) {
                return Optional.empty();
            }
            if (t instanceof OncRpcAcceptedException a) {
                throw new RpcReplyException(acceptStatusOf(a), "server answered " + a.getMessage()
                        + " to procedure 0x" + Integer.toUnsignedString(procedure, 16));
            }
            if (t instanceof OncRpcRejectedException r) {
                throw new RpcReplyException("server denied the call: " + r.getMessage());
            }
            if (t instanceof IOException io) {
                throw io;
            }
            throw new IOException(t);
        }
    }

    private void call(int procedure, XdrAble args, XdrAble result, AuthSys caller) throws IOException {
        try {
            rpc.call(procedure, args, result, timeout.toMillis(), TimeUnit.MILLISECONDS, caller.toRpcAuth());
        } catch (TimeoutException e) {
            throw new SocketTimeoutException("no reply to procedure " + Integer.toUnsignedString(procedure, 16)
                    + " from " + remoteAddress() + " within " + timeout);
        } catch (OncRpcAcceptedException e) {
            throw new RpcReplyException(acceptStatusOf(e), "server answered " + e.getMessage()
                    + " to procedure 0x" + Integer.toUnsignedString(procedure, 16));
        } catch (OncRpcRejectedException e) {
            throw new RpcReplyException("server denied the call: " + e.getMessage());
        } catch (InterruptedIOException e) {
            Thread.currentThread().interrupt();
            throw e;
        }
    }

    /** oncrpc4j keeps the accept status only in the exception's message. */
    private static RpcAcceptStatus acceptStatusOf(OncRpcAcceptedException e) {
        for (RpcAcceptStatus s : RpcAcceptStatus.values()) {
            if (RpcAccepsStatus.toString(s.code()).equals(e.getMessage())) {
                return s;
            }
        }
        return RpcAcceptStatus.SYSTEM_ERR;
    }

    /** Closes the TCP connection; calls in flight fail. Calling it again does nothing. */
    @Override
    public void close() throws IOException {
        client.close();
    }

    /** Arguments that are a given byte string. */
    private record RawArgs(byte[] bytes) implements XdrAble {
        @Override
        public void xdrEncode(XdrEncodingStream xdr) {
            xdr.xdrEncodeOpaque(bytes, bytes.length);
        }

        @Override
        public void xdrDecode(XdrDecodingStream xdr) {
            throw new UnsupportedOperationException("encode only");
        }
    }

    /** Whatever follows an accepted SUCCESS reply header, as bytes. */
    private static final class RawBody implements XdrAble {
        private byte[] bytes = new byte[0];

        @Override
        public void xdrEncode(XdrEncodingStream xdr) {
            throw new UnsupportedOperationException("decode only");
        }

        @Override
        public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Xdr x = (Xdr) xdr;
            while (x.hasMoreData()) {
                int v = x.xdrDecodeInt();
                out.write(v >>> 24);
                out.write(v >>> 16);
                out.write(v >>> 8);
                out.write(v);
            }
            bytes = out.toByteArray();
        }
    }
}
