package org.tcnfs.client.rpc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Objects;
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

    private NfsConnection(OncRpcClient client, RpcTransport transport, AuthSys credential, Duration timeout) {
        this.client = client;
        this.transport = transport;
        this.credential = credential;
        this.timeout = timeout;
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
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(credential, "credential");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
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
        return new NfsConnection(client, transport, credential, timeout);
    }

    /** The identity of calls that name none. */
    public AuthSys credential() {
        return credential;
    }

    /** The server's address. */
    public InetSocketAddress remoteAddress() {
        return transport.getRemoteSocketAddress();
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
        TXN_COMPOUND4args wrapped = new TXN_COMPOUND4args();
        wrapped.txnid = new txnid4(txnId.clone());
        wrapped.compound = args;
        COMPOUND4res res = new COMPOUND4res();
        call(PROC_TXN_COMPOUND, wrapped, res, caller);
        return res;
    }

    /** TXN_COMMIT: the status (NFS4_OK iff it committed). */
    public int txnCommit(byte[] txnId) throws IOException {
        TXN_END4res res = new TXN_END4res();
        call(PROC_TXN_COMMIT, new txnid4(txnId.clone()), res, credential);
        return res.status;
    }

    /** TXN_ABORT: the status. */
    public int txnAbort(byte[] txnId) throws IOException {
        TXN_END4res res = new TXN_END4res();
        call(PROC_TXN_ABORT, new txnid4(txnId.clone()), res, credential);
        return res.status;
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
