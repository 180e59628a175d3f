package org.tcnfs.nfs4.ops;

import static org.tcnfs.nfs4.xdr.XdrRoundTrip.decode;
import static org.tcnfs.nfs4.xdr.XdrRoundTrip.encode;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundEngine;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.compound.OperationExecutor;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.state.MutableClock;
import org.tcnfs.nfs4.state.NfsSession;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.BIND_CONN_TO_SESSION4args;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4args;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4resok;
import org.tcnfs.nfs4.xdr.DESTROY_CLIENTID4args;
import org.tcnfs.nfs4.xdr.DESTROY_SESSION4args;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4args;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.RECLAIM_COMPLETE4args;
import org.tcnfs.nfs4.xdr.SEQUENCE4args;
import org.tcnfs.nfs4.xdr.channel_attrs4;
import org.tcnfs.nfs4.xdr.client_owner4;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_owner4;
import org.tcnfs.nfs4.xdr.openflag4;
import org.tcnfs.nfs4.xdr.sessionid4;
import org.tcnfs.nfs4.xdr.verifier4;

/**
 * A server of the real compound engine and operations over an in-memory file system, with a clock the
 * test moves. PUTROOTFH is wrapped to count its executions and, when asked, to run a nested compound
 * while it runs (to send a request on a slot that is busy).
 */
final class SessionHarness implements AutoCloseable {
    static final Credential ALICE = new Credential(1000, 1000, new int[0]);

    final MutableClock clock = new MutableClock();
    final NfsLimits limits;
    final StateHandler state;
    final ServerContext server;
    final CompoundEngine engine;
    final AtomicInteger putRootRuns = new AtomicInteger();
    final AtomicReference<NfsSession> sessionSeenByPutRoot = new AtomicReference<>();
    final Object connection = new Object();
    volatile IoRunnable duringPutRoot;

    SessionHarness(NfsLimits limits, Path recordDirectory) {
        this.limits = limits;
        this.state = StateHandler.builder(limits, clock).recordDirectory(recordDirectory)
                .reaperInterval(Duration.ofHours(1)).build();
        InMemoryFileSystem fs = new InMemoryFileSystem(clock);
        this.server = new ServerContext((cred, client) -> fs, state, limits, clock);
        Map<Integer, NfsOperation> ops = new java.util.HashMap<>(Operations.all());
        NfsOperation putRoot = ops.get(OP_PUTROOTFH);
        ops.put(OP_PUTROOTFH, (context, op, result) -> {
            putRootRuns.incrementAndGet();
            sessionSeenByPutRoot.set(context.session());
            IoRunnable nested = duringPutRoot;
            if (nested != null) {
                duringPutRoot = null;
                nested.run();
            }
            putRoot.process(context, op, result);
        });
        this.engine = new CompoundEngine(OperationExecutor.of(ops), List.of(), Set.of(1));
    }

    SessionHarness() {
        this(NfsLimits.DEFAULTS, null);
    }

    @Override
    public void close() {
        state.close();
    }

    @FunctionalInterface
    interface IoRunnable {
        void run() throws IOException;
    }

    // ------------------------------------------------------------------ compounds

    /** A compound as root, through XDR both ways. */
    COMPOUND4res compound(nfs_argop4... ops) throws IOException {
        return compound(Credential.ROOT, 0, ops);
    }

    /** A compound through XDR both ways. */
    COMPOUND4res compound(Credential credential, int requestBytes, nfs_argop4... ops) throws IOException {
        return decode(encode(rawCompound(credential, requestBytes, ops)), new COMPOUND4res());
    }

    /** A compound, arguments through XDR, the reply as the engine returned it. */
    COMPOUND4res rawCompound(Credential credential, int requestBytes, nfs_argop4... ops) throws IOException {
        COMPOUND4args args = new COMPOUND4args();
        args.tag = "sessions";
        args.minorversion = 1;
        args.argarray = ops;
        COMPOUND4args decoded = decode(encode(args), new COMPOUND4args());
        CompoundContext context = CompoundContext.builder()
                .server(server)
                .minorVersion(1)
                .credential(credential)
                .clientAddress(InetAddress.getLoopbackAddress())
                .connection(connection)
                .requestBytes(requestBytes)
                .build();
        return engine.process(context, decoded);
    }

    static NfsStatus status(COMPOUND4res res) {
        return NfsStatus.of(res.status);
    }

    static <T> T body(COMPOUND4res res, int index, Class<T> type) {
        nfs_resop4 r = res.resarray[index];
        if (r.status != 0) {
            throw new AssertionError("operation " + index + " failed: " + NfsStatus.nameOf(r.status));
        }
        return type.cast(r.body);
    }

    // ------------------------------------------------------------------ operations

    static nfs_argop4 exchangeIdOp(String owner, int verifier, int flags) {
        EXCHANGE_ID4args a = new EXCHANGE_ID4args();
        a.eia_clientowner = new client_owner4(new verifier4(verifierBytes(verifier)),
                owner.getBytes(StandardCharsets.UTF_8));
        a.eia_flags = flags;
        return new nfs_argop4(OP_EXCHANGE_ID, a);
    }

    static byte[] verifierBytes(int v) {
        return new byte[] {0, 0, 0, 0, (byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    static channel_attrs4 attrs(int maxRequest, int maxResponse, int maxOps, int maxRequests) {
        channel_attrs4 c = new channel_attrs4();
        c.ca_maxrequestsize = maxRequest;
        c.ca_maxresponsesize = maxResponse;
        c.ca_maxresponsesize_cached = 64 * 1024;
        c.ca_maxoperations = maxOps;
        c.ca_maxrequests = maxRequests;
        return c;
    }

    static nfs_argop4 createSessionOp(long clientId, int sequence, channel_attrs4 fore) {
        CREATE_SESSION4args a = new CREATE_SESSION4args();
        a.csa_clientid = clientId;
        a.csa_sequence = sequence;
        a.csa_flags = CREATE_SESSION4args.CREATE_SESSION4_FLAG_CONN_BACK_CHAN;
        a.csa_fore_chan_attrs = fore;
        a.csa_back_chan_attrs = attrs(4096, 4096, 2, 1);
        a.csa_cb_program = 0x40000000;
        return new nfs_argop4(OP_CREATE_SESSION, a);
    }

    static nfs_argop4 createSessionOp(long clientId, int sequence) {
        return createSessionOp(clientId, sequence, attrs(1 << 20, 1 << 20, 64, 8));
    }

    static nfs_argop4 sequenceOp(sessionid4 session, int sequenceId, int slot, boolean cacheThis) {
        SEQUENCE4args a = new SEQUENCE4args();
        a.sa_sessionid = session;
        a.sa_sequenceid = sequenceId;
        a.sa_slotid = slot;
        a.sa_highest_slotid = slot;
        a.sa_cachethis = cacheThis;
        return new nfs_argop4(OP_SEQUENCE, a);
    }

    static nfs_argop4 putRootOp() {
        return new nfs_argop4(OP_PUTROOTFH, null);
    }

    static nfs_argop4 destroySessionOp(sessionid4 session) {
        DESTROY_SESSION4args a = new DESTROY_SESSION4args();
        a.dsa_sessionid = session;
        return new nfs_argop4(OP_DESTROY_SESSION, a);
    }

    static nfs_argop4 destroyClientIdOp(long clientId) {
        DESTROY_CLIENTID4args a = new DESTROY_CLIENTID4args();
        a.dca_clientid = clientId;
        return new nfs_argop4(OP_DESTROY_CLIENTID, a);
    }

    /** OPEN that creates {@code name} (UNCHECKED) in the current directory for owner "owner" of the client. */
    static nfs_argop4 openCreateOp(long clientId, String name) {
        return new nfs_argop4(OP_OPEN, new OPEN4args(0, OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                OPEN4args.OPEN4_SHARE_DENY_NONE, new open_owner4(clientId, "owner".getBytes(StandardCharsets.UTF_8)),
                openflag4.create(createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4())),
                open_claim4.byName(name)));
    }

    static nfs_argop4 reclaimCompleteOp() {
        return new nfs_argop4(OP_RECLAIM_COMPLETE, new RECLAIM_COMPLETE4args());
    }

    static nfs_argop4 bindConnOp(sessionid4 session, int dir) {
        BIND_CONN_TO_SESSION4args a = new BIND_CONN_TO_SESSION4args();
        a.bctsa_sessid = session;
        a.bctsa_dir = dir;
        return new nfs_argop4(OP_BIND_CONN_TO_SESSION, a);
    }

    // ------------------------------------------------------------------ common sequences

    EXCHANGE_ID4resok exchangeId(String owner, int verifier) throws IOException {
        return body(compound(exchangeIdOp(owner, verifier, 0)), 0, EXCHANGE_ID4resok.class);
    }

    /** EXCHANGE_ID and CREATE_SESSION for {@code owner}: a confirmed client with one session. */
    CREATE_SESSION4resok newSession(String owner) throws IOException {
        EXCHANGE_ID4resok eid = exchangeId(owner, 1);
        return body(compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid)), 0, CREATE_SESSION4resok.class);
    }
}
