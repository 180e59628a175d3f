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
import org.tcnfs.nfs4.vfs.FileSystemProvider;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.MalformedXdrException;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.TXN_BEGIN4args;
import org.tcnfs.nfs4.xdr.TXN_BEGIN4res;
import org.tcnfs.nfs4.xdr.TXN_COMPOUND4args;
import org.tcnfs.nfs4.xdr.TXN_END4res;
import org.tcnfs.nfs4.xdr.txnid4;
import org.tcnfs.nfs4.status.NfsStatus;

/**
 * The NFS program (100003, version 4) on oncrpc4j: NULL and COMPOUND.
 *
 * <p>COMPOUND with the most significant bit of the procedure number set ({@code 0x80000001}) asks for a
 * transaction; it is served only when {@link TransactionSupport} says so, and answered PROC_UNAVAIL
 * otherwise, so a client can never mistake a plain server for a transactional one. Arguments that do not
 * decode are answered with GARBAGE_ARGS. With {@link SpanningTransactions}, TXN_BEGIN ({@code 0x80000010}),
 * TXN_COMPOUND ({@code 0x80000011}), TXN_COMMIT ({@code 0x80000012}) and TXN_ABORT ({@code 0x80000013}) run
 * transactions that span compounds (docs/protocol.md); without, they are PROC_UNAVAIL too. Callers without AUTH_SYS are treated as the anonymous user.
 *
 * <p>An NFSv4.0 COMPOUND that changes something and is sent again with the same XID from the same socket address
 * gets the reply of its first run ({@link ReplyCache}); NFSv4.1 compounds have their session's slots for that.
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
    /** TXN_BEGIN (docs/protocol.md, transactions that span compounds). */
    public static final int PROC_TXN_BEGIN = 0x80000010;
    /** TXN_COMPOUND: a COMPOUND inside a transaction that spans compounds. */
    public static final int PROC_TXN_COMPOUND = 0x80000011;
    /** TXN_COMMIT. */
    public static final int PROC_TXN_COMMIT = 0x80000012;
    /** TXN_ABORT. */
    public static final int PROC_TXN_ABORT = 0x80000013;
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
    private final SpanningTransactions spanning;
    private final ReplyCache replies = new ReplyCache();

    public NfsRpcService(ServerContext server, CompoundEngine engine, TransactionSupport transactions) {
        this(server, engine, transactions, null);
    }

    /**
     * @param spanning what serves transactions that span compounds; null answers their procedures
     *     PROC_UNAVAIL
     */
    public NfsRpcService(ServerContext server, CompoundEngine engine, TransactionSupport transactions,
            SpanningTransactions spanning) {
        this.server = Objects.requireNonNull(server);
        this.engine = Objects.requireNonNull(engine);
        this.transactions = Objects.requireNonNull(transactions);
        this.spanning = spanning;
    }

    @Override
    public void dispatchOncRpcCall(RpcCall call) throws OncRpcException, java.io.IOException {
        int proc = call.getProcedure();
        if (proc == PROC_NULL) {
            call.retrieveCall(XdrVoid.XDR_VOID);
            call.reply(XdrVoid.XDR_VOID);
        } else if (proc == PROC_COMPOUND || (proc == (TXN_FLAG | PROC_COMPOUND) && transactions.acceptsTransactionFlag())) {
            compound(call, proc, null);
        } else if (spanning != null && proc == PROC_TXN_COMPOUND) {
            compound(call, proc, spanning);
        } else if (spanning != null && proc == PROC_TXN_BEGIN) {
            txnBegin(call);
        } else if (spanning != null && (proc == PROC_TXN_COMMIT || proc == PROC_TXN_ABORT)) {
            txnEnd(call, proc);
        } else {
            call.failProcedureUnavailable();
        }
    }

    /** NFSv4.0 calls answered again from the duplicate request cache ({@link ReplyCache}) so far. */
    long replayedCalls() {
        return replies.replays();
    }

    private void txnBegin(RpcCall call) throws OncRpcException, java.io.IOException {
        TXN_BEGIN4args args = new TXN_BEGIN4args();
        try {
            retrieveExactly(call, args);
        } catch (java.io.IOException | RuntimeException e) {
            UNDECODABLE.warn("undecodable TXN_BEGIN from {}: {}", call.getTransport().getRemoteSocketAddress(),
                    e.toString());
            call.failRpcGarbage();
            return;
        }
        TXN_BEGIN4res res = new TXN_BEGIN4res();
        try {
            SpanningTransactions.Begun begun = spanning.begin(args.ticket, connectionOf(call));
            res.status = begun.status().code();
            if (begun.status() == NfsStatus.OK) {
                res.txnid = new txnid4(begun.txnId());
                res.ticket = begun.ticket();
                res.maxCompounds = begun.maxCompounds();
                res.maxBytes = begun.maxBytes();
                res.idleTimeoutMillis = begun.idleTimeoutMillis();
            }
        } catch (RuntimeException e) {
            LOG.error("TXN_BEGIN failed", e);
            res.status = NfsStatus.SERVERFAULT.code();
        }
        call.reply(res);
    }

    private void txnEnd(RpcCall call, int proc) throws OncRpcException, java.io.IOException {
        txnid4 id = new txnid4();
        try {
            retrieveExactly(call, id);
        } catch (java.io.IOException | RuntimeException e) {
            UNDECODABLE.warn("undecodable TXN_COMMIT/TXN_ABORT from {}: {}",
                    call.getTransport().getRemoteSocketAddress(), e.toString());
            call.failRpcGarbage();
            return;
        }
        NfsStatus status;
        try {
            status = proc == PROC_TXN_COMMIT ? spanning.commit(id.value, connectionOf(call))
                    : spanning.abort(id.value, connectionOf(call));
        } catch (RuntimeException e) {
            LOG.error("{} failed", proc == PROC_TXN_COMMIT ? "TXN_COMMIT" : "TXN_ABORT", e);
            status = NfsStatus.SERVERFAULT;
        }
        call.reply(new TXN_END4res(status.code()));
    }

    /**
     * Decodes the arguments of TXN_BEGIN, TXN_COMMIT or TXN_ABORT, which have a fixed size: a call whose
     * arguments are shorter or longer is refused whole (GARBAGE_ARGS) rather than half read or read with bytes
     * left over.
     */
    private static void retrieveExactly(RpcCall call, org.dcache.oncrpc4j.xdr.XdrAble args)
            throws java.io.IOException {
        checkArgumentSize(call.getProcedure(), call.getXdr().asBuffer().remaining());
        call.retrieveCall(args);
    }

    /** The size of the arguments of TXN_BEGIN, TXN_COMMIT and TXN_ABORT; -1 for other procedures (any size). */
    static int fixedArgumentSize(int proc) {
        return switch (proc) {
            case PROC_TXN_BEGIN -> TXN_BEGIN4args.SIZE;
            case PROC_TXN_COMMIT, PROC_TXN_ABORT -> txnid4.SIZE;
            default -> -1;
        };
    }

    /** Refuses arguments of {@code bytes} for a procedure whose arguments have another, fixed size. */
    static void checkArgumentSize(int proc, int bytes) throws MalformedXdrException {
        int size = fixedArgumentSize(proc);
        if (size >= 0 && bytes != size) {
            throw new MalformedXdrException("arguments of " + bytes + " bytes, not " + size);
        }
    }

    /** The connection a call came on, identified by its two socket addresses. */
    static SpanningTransactions.Connection connectionOf(RpcCall call) {
        org.dcache.oncrpc4j.rpc.RpcTransport transport = call.getTransport();
        InetSocketAddress remote = transport.getRemoteSocketAddress();
        return new SpanningTransactions.Connection(remote + "/" + transport.getLocalSocketAddress(),
                transport::isOpen, remote == null ? null : remote.getAddress());
    }

    private void compound(RpcCall call, int proc, SpanningTransactions spanningTxn) {
        decode(call, proc, spanningTxn).run();
    }

    /**
     * Decodes a plain COMPOUND (procedure 1, no transaction flag) without running it, so that the caller can
     * judge where it runs ({@link InlineCompounds}); null for any other procedure, which
     * {@link #dispatchOncRpcCall} decodes and runs as usual. Arguments that do not decode are answered
     * GARBAGE_ARGS (and logged) when the result runs, not here.
     */
    DecodedCompound decodePlainCompound(RpcCall call) {
        return call.getProcedure() == PROC_COMPOUND ? decode(call, PROC_COMPOUND, null) : null;
    }

    private DecodedCompound decode(RpcCall call, int proc, SpanningTransactions spanningTxn) {
        ByteBuffer body = call.getXdr().asBuffer().toByteBuffer();
        int requestBytes = body.remaining();
        long fingerprint = fingerprint(body);
        try {
            if (spanningTxn != null) {
                TXN_COMPOUND4args wrapped = new TXN_COMPOUND4args();
                call.retrieveCall(wrapped);
                return new DecodedCompound(call, proc, wrapped.compound,
                        new SpanningTransactions.Call(wrapped.txnid.value, connectionOf(call)), requestBytes,
                        fingerprint, null);
            }
            COMPOUND4args args = new COMPOUND4args();
            call.retrieveCall(args);
            return new DecodedCompound(call, proc, args, null, requestBytes, fingerprint, null);
        } catch (java.io.IOException | RuntimeException e) {
            return new DecodedCompound(call, proc, null, null, requestBytes, fingerprint, e);
        }
    }

    /** A COMPOUND call decoded (or found undecodable), to be run: answered, on the thread that runs it. */
    final class DecodedCompound implements Runnable {
        private final RpcCall call;
        private final int proc;
        private final COMPOUND4args args;
        private final SpanningTransactions.Call txnCall;
        private final int requestBytes;
        private final long fingerprint;
        private final Exception undecodable;

        private DecodedCompound(RpcCall call, int proc, COMPOUND4args args, SpanningTransactions.Call txnCall,
                int requestBytes, long fingerprint, Exception undecodable) {
            this.call = call;
            this.proc = proc;
            this.args = args;
            this.txnCall = txnCall;
            this.requestBytes = requestBytes;
            this.fingerprint = fingerprint;
            this.undecodable = undecodable;
        }

        /**
         * Where it may run, having come in a record of {@code recordBytes} ({@link InlineCompounds}): on a worker
         * unless it decoded and is a short plain compound.
         */
        InlineCompounds.Kind inlineKind(int recordBytes) {
            return undecodable == null && txnCall == null && proc == PROC_COMPOUND
                    ? InlineCompounds.kind(args, recordBytes) : InlineCompounds.Kind.WORKER;
        }

        /** Whether {@code guard} lets this compound, of {@link InlineCompounds.Kind#CHANGES}, run inline now. */
        boolean changesAllowedBy(NfsServer.InlineChanges guard) {
            return guard.allow(args, clientOf(call));
        }

        @Override
        public void run() {
            if (undecodable != null) {
                UNDECODABLE.warn("undecodable COMPOUND from {}: {}", call.getTransport().getRemoteSocketAddress(),
                        undecodable.toString());
                call.failRpcGarbage();
                return;
            }
            execute(call, proc, args, txnCall, requestBytes, fingerprint);
        }
    }

    private void execute(RpcCall call, int proc, COMPOUND4args args, SpanningTransactions.Call txnCall,
            int requestBytes, long fingerprint) {
        InetSocketAddress remote = call.getTransport().getRemoteSocketAddress();
        ReplyCache.Key kept = txnCall == null && remote != null && ReplyCache.keeps(args)
                ? new ReplyCache.Key(remote, call.getXid()) : null;
        if (kept != null) {
            ReplyCache.Lookup lookup = replies.begin(kept, proc, fingerprint);
            if (lookup.verdict() == ReplyCache.Verdict.DROP) {
                LOG.debug("call {} of {} dropped: the same call is running", Integer.toUnsignedString(kept.xid()),
                        remote);
                return;
            }
            if (lookup.verdict() == ReplyCache.Verdict.REPLAY) {
                LOG.debug("call {} of {} answered again from the reply cache", Integer.toUnsignedString(kept.xid()),
                        remote);
                send(call, lookup.reply(), remote);
                return;
            }
        }
        COMPOUND4res res = null;
        try {
            res = run(call, proc, args, txnCall, requestBytes, fingerprint, remote);
        } finally {
            if (kept != null) {
                if (res != null) {
                    // kept before it is sent, so that a copy arriving meanwhile is answered, not dropped
                    replies.finish(kept, fingerprint, res);
                } else {
                    replies.abandon(kept, fingerprint);
                }
            }
        }
        if (res != null) {
            send(call, res, remote);
        }
    }

    private static void send(RpcCall call, COMPOUND4res res, InetSocketAddress remote) {
        if (!call.getTransport().isOpen()) {
            // the client went away while its compound ran: nothing to send the reply on (a copy sent again on a new
            // connection from the same port finds it kept, when it is)
            LOG.debug("reply to {} not sent: the connection closed while the compound ran", remote);
            return;
        }
        try {
            call.reply(res);
        } catch (RuntimeException e) {
            LOG.error("COMPOUND reply could not be sent", e);
            call.failRpcSystem();
        }
    }

    /** Runs the COMPOUND; returns its reply, or null when it failed outside any operation (answered SYSTEM_ERR). */
    private COMPOUND4res run(RpcCall call, int proc, COMPOUND4args args, SpanningTransactions.Call txnCall,
            int requestBytes, long fingerprint, InetSocketAddress remote) {
        InetAddress client = clientOf(call);
        FileSystemProvider.Use use = server.fileSystems().enter();
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
                    .spanningTxn(txnCall)
                    .build();
            COMPOUND4res res = engine.process(context, args);
            // its locks are released (early-released flushes and spanning transactions' locks count apart): the next
            // call need not wait for a worker
            RequestScheduler.finishing();
            return res;
        } catch (RuntimeException e) {
            LOG.error("COMPOUND failed outside any operation", e);
            call.failRpcSystem();
            return null;
        } finally {
            use.close();
            MDC.remove(TcnfsMdc.CLIENT);
            MDC.remove(TcnfsMdc.TAG);
            MDC.remove(TcnfsMdc.COMPOUND);
            MDC.remove(TcnfsMdc.SESSION);
            MDC.remove(TcnfsMdc.TXN);
        }
    }

    /** The address of the client that sent {@code call} (loopback when the transport has none). */
    private static InetAddress clientOf(RpcCall call) {
        InetSocketAddress remote = call.getTransport().getRemoteSocketAddress();
        return remote == null ? InetAddress.getLoopbackAddress() : remote.getAddress();
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
