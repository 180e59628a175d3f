package org.tcnfs.nfs4.rpc;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.rpc.RpcAuth;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeUnix;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcDispatchable;
import org.dcache.oncrpc4j.xdr.XdrVoid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundEngine;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.compound.TcnfsMdc;
import org.tcnfs.nfs4.log.RateLimitedLog;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;

/**
 * The NFS program (100003, version 4) on oncrpc4j: NULL and COMPOUND.
 *
 * <p>COMPOUND with the most significant bit of the procedure number set ({@code 0x80000001}) asks for a
 * transaction; it is served only when {@link TransactionSupport} says so, and answered PROC_UNAVAIL
 * otherwise, so a client can never mistake a plain server for a transactional one. Arguments that do not
 * decode are answered with GARBAGE_ARGS. Callers without AUTH_SYS are treated as the anonymous user.
 */
public final class NfsRpcService implements RpcDispatchable {
    private static final Logger LOG = LoggerFactory.getLogger(NfsRpcService.class);
    /** A client can send undecodable COMPOUNDs as fast as it likes: at most 10 lines per 10 s, with a count. */
    private static final RateLimitedLog UNDECODABLE = RateLimitedLog.of(LOG, 10, Duration.ofSeconds(10));

    /** The NFS RPC program number. */
    public static final int NFS_PROGRAM = 100003;
    /** NFS version 4. */
    public static final int NFS_V4 = 4;
    /** NFSPROC4_NULL. */
    public static final int PROC_NULL = 0;
    /** NFSPROC4_COMPOUND. */
    public static final int PROC_COMPOUND = 1;
    /** The bit that asks for a transactional COMPOUND. */
    public static final int TXN_FLAG = 0x80000000;
    /** uid and gid of callers without AUTH_SYS. */
    public static final int NOBODY = 65534;
    private static final int FINGERPRINTED_BYTES = 4096;

    /** Whether this server runs COMPOUNDs sent with {@link #TXN_FLAG}. */
    @FunctionalInterface
    public interface TransactionSupport {
        boolean acceptsTransactionFlag();
    }

    private final ServerContext server;
    private final CompoundEngine engine;
    private final TransactionSupport transactions;

    public NfsRpcService(ServerContext server, CompoundEngine engine, TransactionSupport transactions) {
        this.server = Objects.requireNonNull(server);
        this.engine = Objects.requireNonNull(engine);
        this.transactions = Objects.requireNonNull(transactions);
    }

    @Override
    public void dispatchOncRpcCall(RpcCall call) throws OncRpcException, java.io.IOException {
        int proc = call.getProcedure();
        if (proc == PROC_NULL) {
            call.retrieveCall(XdrVoid.XDR_VOID);
            call.reply(XdrVoid.XDR_VOID);
        } else if (proc == PROC_COMPOUND || (proc == (TXN_FLAG | PROC_COMPOUND) && transactions.acceptsTransactionFlag())) {
            compound(call, proc);
        } else {
            call.failProcedureUnavailable();
        }
    }

    private void compound(RpcCall call, int proc) {
        InetSocketAddress remote = call.getTransport().getRemoteSocketAddress();
        ByteBuffer body = call.getXdr().asBuffer().toByteBuffer();
        int requestBytes = body.remaining();
        long fingerprint = fingerprint(body);
        COMPOUND4args args = new COMPOUND4args();
        try {
            call.retrieveCall(args);
        } catch (java.io.IOException | RuntimeException e) {
            UNDECODABLE.warn("undecodable COMPOUND from {}: {}", remote, e.toString());
            call.failRpcGarbage();
            return;
        }
        InetAddress client = remote == null ? InetAddress.getLoopbackAddress() : remote.getAddress();
        MDC.put(TcnfsMdc.CLIENT, String.valueOf(remote));
        MDC.put(TcnfsMdc.TAG, args.tag);
        MDC.put(TcnfsMdc.COMPOUND, Integer.toUnsignedString(call.getXid()));
        try {
            CompoundContext context = CompoundContext.builder()
                    .server(server)
                    .minorVersion(args.minorversion)
                    .procedure(proc)
                    .tag(args.tag)
                    .credential(credentialOf(call.getCredential()))
                    .clientAddress(client)
                    .connection(call.getTransport())
                    .requestBytes(requestBytes)
                    .requestFingerprint(fingerprint)
                    .build();
            COMPOUND4res res = engine.process(context, args);
            call.reply(res);
        } catch (RuntimeException e) {
            LOG.error("COMPOUND failed outside any operation", e);
            call.failRpcSystem();
        } finally {
            MDC.remove(TcnfsMdc.CLIENT);
            MDC.remove(TcnfsMdc.TAG);
            MDC.remove(TcnfsMdc.COMPOUND);
            MDC.remove(TcnfsMdc.SESSION);
            MDC.remove(TcnfsMdc.TXN);
        }
    }

    /**
     * The size of the arguments and a CRC of their first {@value #FINGERPRINTED_BYTES} bytes: equal for a
     * byte-identical retransmission, and in practice different for any other request.
     */
    static long fingerprint(ByteBuffer body) {
        ByteBuffer head = body.duplicate();
        head.limit(head.position() + Math.min(head.remaining(), FINGERPRINTED_BYTES));
        CRC32C crc = new CRC32C();
        crc.update(head);
        return ((long) body.remaining() << 32) ^ crc.getValue();
    }

    /** The caller's AUTH_SYS identity, or the anonymous user for any other flavor. */
    static Credential credentialOf(RpcAuth auth) {
        if (auth instanceof RpcAuthTypeUnix unix) {
            return new Credential(unix.uid(), unix.gid(), unix.gids());
        }
        return new Credential(NOBODY, NOBODY, new int[0]);
    }
}
