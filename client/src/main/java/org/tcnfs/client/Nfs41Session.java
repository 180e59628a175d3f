package org.tcnfs.client;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_CREATE_SESSION;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_EXCHANGE_ID;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_ACCESS;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_CLOSE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LOOKUP;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LOOKUPP;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_NVERIFY;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_PUTFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_PUTPUBFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_PUTROOTFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READDIR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READLINK;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_RESTOREFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SAVEFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SECINFO;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SECINFO_NO_NAME;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SEQUENCE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_VERIFY;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.client.rpc.AuthSys;
import org.tcnfs.client.rpc.LateReplyProbe;
import org.tcnfs.nfs4.xdr.TXN_BEGIN4res;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsExceptions;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.CLOSE4args;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4args;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4resok;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4args;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.SEQUENCE4args;
import org.tcnfs.nfs4.xdr.callback_sec_parms4;
import org.tcnfs.nfs4.xdr.channel_attrs4;
import org.tcnfs.nfs4.xdr.client_owner4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.open_claim_type4;
import org.tcnfs.nfs4.xdr.opentype4;
import org.tcnfs.nfs4.xdr.sessionid4;
import org.tcnfs.nfs4.xdr.stateid4;
import org.tcnfs.nfs4.xdr.verifier4;

/**
 * An NFSv4.1 client ID and session on one connection (RFC 8881 section 2.10): EXCHANGE_ID and
 * CREATE_SESSION at {@link #create}, then every {@link #execute} puts a SEQUENCE in front of the
 * operations and advances the slot's sequence id when the server accepted the SEQUENCE.
 *
 * <p>For reply-cache tests, {@link #resend(CompoundResult)} sends an earlier request again unchanged
 * (same slot, same sequence id). Thread-safe: concurrent {@code execute} calls use different slots, up to
 * the number the server granted. {@link #close()} destroys the session and the client ID.
 */
public final class Nfs41Session implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Nfs41Session.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The callback program number announced at CREATE_SESSION (no back channel is served). */
    private static final int CB_PROGRAM = 0x40000000;
    /** Slots asked for; the server may grant fewer. */
    public static final int SLOTS_WANTED = 8;

    private final NfsConnection connection;
    private final long clientId;
    private final byte[] sessionId;
    private final channel_attrs4 fore;
    private final int[] slotSequence;
    private final BlockingQueue<Integer> freeSlots;
    /** Slots taken out of use because their request got no reply. */
    private final java.util.concurrent.atomic.AtomicInteger retiredSlots = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean closed;

    private Nfs41Session(NfsConnection connection, long clientId, byte[] sessionId, channel_attrs4 fore) {
        this.connection = connection;
        this.clientId = clientId;
        this.sessionId = sessionId;
        this.fore = fore;
        int slots = Math.max(1, Math.min(fore.ca_maxrequests, 1024));
        this.slotSequence = new int[slots];
        this.freeSlots = new ArrayBlockingQueue<>(slots);
        for (int i = 0; i < slots; i++) {
            slotSequence[i] = 1;
            freeSlots.add(i);
        }
    }

    /** A session of a new client whose owner is {@code ownerPrefix} plus a random suffix. */
    public static Nfs41Session create(NfsConnection connection, String ownerPrefix) throws IOException {
        byte[] suffix = new byte[8];
        RANDOM.nextBytes(suffix);
        return create(connection, (ownerPrefix + "-" + java.util.HexFormat.of().formatHex(suffix))
                .getBytes(StandardCharsets.UTF_8), randomVerifier());
    }

    /**
     * EXCHANGE_ID with {@code ownerId} and {@code verifier}, CREATE_SESSION asking for large limits and
     * {@value #SLOTS_WANTED} slots, then RECLAIM_COMPLETE.
     *
     * @throws NfsException when the server refuses one of them
     */
    public static Nfs41Session create(NfsConnection connection, byte[] ownerId, byte[] verifier) throws IOException {
        EXCHANGE_ID4args ex = new EXCHANGE_ID4args();
        ex.eia_clientowner = new client_owner4(new verifier4(verifier.clone()), ownerId.clone());
        ex.eia_flags = 0;
        CompoundResult exchanged = send(connection, new CompoundBuilder().tag("exchange_id").exchangeId(ex).build());
        exchanged.orThrow();
        EXCHANGE_ID4resok exOk = exchanged.body(OP_EXCHANGE_ID, EXCHANGE_ID4resok.class);

        CREATE_SESSION4args cs = new CREATE_SESSION4args();
        cs.csa_clientid = exOk.eir_clientid;
        cs.csa_sequence = exOk.eir_sequenceid;
        cs.csa_flags = 0;
        cs.csa_fore_chan_attrs = channel(64 * 1024 * 1024, 8192, SLOTS_WANTED);
        cs.csa_back_chan_attrs = channel(16 * 1024, 8, 1);
        cs.csa_cb_program = CB_PROGRAM;
        callback_sec_parms4 none = new callback_sec_parms4();
        none.cb_secflavor = callback_sec_parms4.AUTH_NONE;
        cs.csa_sec_parms = new callback_sec_parms4[] {none};
        CompoundResult created = send(connection, new CompoundBuilder().tag("create_session").createSession(cs).build());
        created.orThrow();
        CREATE_SESSION4resok csOk = created.body(OP_CREATE_SESSION, CREATE_SESSION4resok.class);

        Nfs41Session session = new Nfs41Session(connection, exOk.eir_clientid, csOk.csr_sessionid.value.clone(),
                csOk.csr_fore_chan_attrs);
        CompoundResult reclaimed = session.execute(new CompoundBuilder().tag("reclaim_complete").reclaimComplete());
        if (!reclaimed.isOk() && reclaimed.status() != NfsStatus.COMPLETE_ALREADY) {
            throw NfsExceptions.of(reclaimed.status(), reclaimed.toString());
        }
        return session;
    }

    private static channel_attrs4 channel(int maxBytes, int maxOps, int slots) {
        channel_attrs4 c = new channel_attrs4();
        c.ca_headerpadsize = 0;
        c.ca_maxrequestsize = maxBytes;
        c.ca_maxresponsesize = maxBytes;
        c.ca_maxresponsesize_cached = maxBytes;
        c.ca_maxoperations = maxOps;
        c.ca_maxrequests = slots;
        c.ca_rdma_ird = new int[0];
        return c;
    }

    private static byte[] randomVerifier() {
        byte[] v = new byte[8];
        RANDOM.nextBytes(v);
        return v;
    }

    private static CompoundResult send(NfsConnection connection, COMPOUND4args args) throws IOException {
        return new CompoundResult(args, connection.compound(args));
    }

    public NfsConnection connection() {
        return connection;
    }

    public long clientId() {
        return clientId;
    }

    public byte[] sessionId() {
        return sessionId.clone();
    }

    /** The fore channel's limits as the server granted them (maxoperations, maxrequestsize, slots). */
    public channel_attrs4 foreChannel() {
        channel_attrs4 c = channel(fore.ca_maxrequestsize, fore.ca_maxoperations, fore.ca_maxrequests);
        c.ca_maxresponsesize = fore.ca_maxresponsesize;
        c.ca_maxresponsesize_cached = fore.ca_maxresponsesize_cached;
        c.ca_headerpadsize = fore.ca_headerpadsize;
        return c;
    }

    /** The sequence id the next request on {@code slot} will carry. */
    public synchronized int nextSequenceId(int slot) {
        return slotSequence[slot];
    }

    /** The operations after a SEQUENCE, as the connection's user. */
    public CompoundResult execute(CompoundBuilder ops) throws IOException {
        return execute(NfsConnection.PROC_COMPOUND, ops, connection.credential());
    }

    /** The operations after a SEQUENCE, as {@code caller}. */
    public CompoundResult execute(CompoundBuilder ops, AuthSys caller) throws IOException {
        return execute(NfsConnection.PROC_COMPOUND, ops, caller);
    }

    /** The operations after a SEQUENCE, sent as a transaction (procedure 0x80000001). */
    public CompoundResult executeTransaction(CompoundBuilder ops) throws IOException {
        return execute(NfsConnection.PROC_COMPOUND_TXN, ops, connection.credential());
    }

    /**
     * The operations after a SEQUENCE on a free slot, with any procedure number and credential. The slot's
     * sequence id advances when the server accepted the SEQUENCE (its status is NFS4_OK), and stays when
     * the server refused it, answered with an RPC error instead of a result (GARBAGE_ARGS: the arguments,
     * SEQUENCE included, were never decoded; an {@link org.tcnfs.client.rpc.RpcReplyException}). A late reply is
     * waited for while the server shows it still runs the compound, up to the connection's
     * {@link NfsConnection#maxWait()}; a slot whose request got no reply in that time is not used again.
     */
    public CompoundResult execute(int procedure, CompoundBuilder ops, AuthSys caller) throws IOException {
        return execute(ops, caller, (args, probe) -> connection.compound(procedure, args, caller, probe),
                args -> connection.compound(procedure, args, caller));
    }

    /** How a compound goes out: COMPOUND with some procedure number, or TXN_COMPOUND; patient of a late reply. */
    @FunctionalInterface
    private interface Sender {
        COMPOUND4res send(COMPOUND4args args, LateReplyProbe<COMPOUND4res> probe) throws IOException;
    }

    /** The same compound sent again, byte for byte, as a question whether the server still runs it. */
    @FunctionalInterface
    private interface Resender {
        COMPOUND4res send(COMPOUND4args args) throws IOException;
    }

    /**
     * Sends the compound on a free slot. While its reply is late, the same request (same slot, same sequence id) is
     * sent again now and then ({@link NfsConnection#call(int, org.dcache.oncrpc4j.xdr.XdrAble,
     * org.dcache.oncrpc4j.xdr.XdrAble, AuthSys, LateReplyProbe)}): NFS4ERR_DELAY at its SEQUENCE means the server
     * still runs the first one (RFC 8881 2.10.6.2), anything else is the reply cache's answer. A slot whose request
     * got no reply at all is not used again (the server may still run it, so neither its sequence id nor the next
     * one is safe to send); when no slot is left the session fails with an IOException instead of waiting.
     */
    private CompoundResult execute(CompoundBuilder ops, AuthSys caller, Sender sender, Resender resender)
            throws IOException {
        if (closed) {
            throw new IllegalStateException("session closed");
        }
        int slot = takeSlot();
        boolean answered = false;
        try {
            int seq;
            synchronized (this) {
                seq = slotSequence[slot];
            }
            COMPOUND4args body = ops.build();
            SEQUENCE4args sequence = sequence(slot, seq);
            sequence.sa_cachethis = needsCachedReply(body);
            COMPOUND4args args = withSequence(body, sequence);
            LateReplyProbe<COMPOUND4res> again = () -> {
                COMPOUND4res res = resender.send(args);
                return stillRuns(res) ? java.util.Optional.empty() : java.util.Optional.of(res);
            };
            COMPOUND4res res;
            try {
                res = sender.send(args, again);
            } catch (org.tcnfs.client.rpc.RpcReplyException e) {
                answered = true; // an RPC error: the arguments, SEQUENCE included, were never run
                throw e;
            }
            answered = true;
            if (res.resarray.length > 0 && res.resarray[0].resop == OP_SEQUENCE && res.resarray[0].status == 0) {
                synchronized (this) {
                    slotSequence[slot] = seq + 1;
                }
            }
            return new CompoundResult(args, res);
        } finally {
            if (answered) {
                freeSlots.add(slot);
            } else {
                int gone = retiredSlots.incrementAndGet();
                LOG.debug("slot {} of {} is not used again: its request got no reply ({} of {} slots left)", slot,
                        this, slotSequence.length - gone, slotSequence.length);
            }
        }
    }

    /** Whether {@code res}, the answer to a request sent again, says the first one still runs. */
    private static boolean stillRuns(COMPOUND4res res) {
        return res.resarray.length <= 1 && res.status == NfsStatus.DELAY.code();
    }

    /**
     * Begins a transaction that spans compounds (TXN_BEGIN, docs/protocol.md) on this session's connection.
     *
     * @param ticket 0 for new work, or {@link SpanningTransaction#ticket()} of an earlier attempt that died
     *     (NFS4ERR_DEADLOCK), so that the retry keeps its age
     * @throws org.tcnfs.client.rpc.RpcReplyException PROC_UNAVAIL from a server without the extension
     *     (a refusal is in {@link SpanningTransaction#beginStatus()})
     */
    public SpanningTransaction beginTransaction(long ticket) throws IOException {
        TXN_BEGIN4res res = connection.txnBegin(ticket);
        return new SpanningTransaction(res);
    }

    /**
     * A transaction that spans compounds: {@link #execute} any number of compounds in it, then {@link #commit()}
     * or {@link #abort()}. A compound that fails aborts it on the server; so do a lost connection and
     * {@link #idleTimeoutMillis()} without a call.
     */
    public final class SpanningTransaction {
        private final int beginStatus;
        private final byte[] id;
        private final long ticket;
        private final int maxCompounds;
        private final long maxBytes;
        private final int idleTimeoutMillis;

        private SpanningTransaction(TXN_BEGIN4res res) {
            this.beginStatus = res.status;
            this.id = res.txnid.value.clone();
            this.ticket = res.ticket;
            this.maxCompounds = res.maxCompounds;
            this.maxBytes = res.maxBytes;
            this.idleTimeoutMillis = res.idleTimeoutMillis;
        }

        /** TXN_BEGIN's status: NFS4_OK, or why the server refused (NFS4ERR_DELAY: too many open). */
        public int beginStatus() {
            return beginStatus;
        }

        /** The 16-byte id. */
        public byte[] id() {
            return id.clone();
        }

        /** The wait-die ticket, to begin again with after NFS4ERR_DEADLOCK. */
        public long ticket() {
            return ticket;
        }

        public int maxCompounds() {
            return maxCompounds;
        }

        public long maxBytes() {
            return maxBytes;
        }

        public int idleTimeoutMillis() {
            return idleTimeoutMillis;
        }

        /** The operations after a SEQUENCE, as TXN_COMPOUND in this transaction. */
        public CompoundResult execute(CompoundBuilder ops) throws IOException {
            AuthSys caller = connection.credential();
            return Nfs41Session.this.execute(ops, caller, (args, probe) -> connection.txnCompound(id, args, caller, probe),
                    args -> connection.txnCompound(id, args, caller));
        }

        /** TXN_COMMIT: NFS4_OK iff it committed. */
        public int commit() throws IOException {
            return connection.txnCommit(id);
        }

        /** TXN_ABORT: its status. */
        public int abort() throws IOException {
            return connection.txnAbort(id);
        }
    }

    /** Sends {@code earlier}'s request again, byte for byte (same slot and sequence id): a retry. */
    public CompoundResult resend(CompoundResult earlier) throws IOException {
        return resend(earlier, NfsConnection.PROC_COMPOUND);
    }

    /** Sends {@code earlier}'s request again with the given procedure number. */
    public CompoundResult resend(CompoundResult earlier, int procedure) throws IOException {
        COMPOUND4args args = earlier.request();
        return new CompoundResult(args, connection.compound(procedure, args, connection.credential()));
    }

    /**
     * A SEQUENCE for {@code slot} with {@code sequenceId}, {@code sa_cachethis} set ({@link #execute} clears it
     * for compounds that change nothing).
     */
    public SEQUENCE4args sequence(int slot, int sequenceId) {
        SEQUENCE4args a = new SEQUENCE4args();
        a.sa_sessionid = new sessionid4(sessionId.clone());
        a.sa_sequenceid = sequenceId;
        a.sa_slotid = slot;
        a.sa_highest_slotid = slotSequence.length - 1;
        a.sa_cachethis = true;
        return a;
    }

    /**
     * Operations a retry can simply run again, so the server need not keep their replies (RFC 8881
     * 2.10.6.1.3); READ and READDIR replies are the large ones, which a server may refuse to cache
     * (NFS4ERR_REP_TOO_BIG_TO_CACHE).
     */
    private static final Set<Integer> RERUNNABLE = Set.of(OP_ACCESS, OP_GETATTR, OP_GETFH, OP_LOOKUP, OP_LOOKUPP,
            OP_NVERIFY, OP_PUTFH, OP_PUTPUBFH, OP_PUTROOTFH, OP_READ, OP_READDIR, OP_READLINK, OP_RESTOREFH,
            OP_SAVEFH, OP_SECINFO, OP_SECINFO_NO_NAME, OP_VERIFY);

    /**
     * Whether a retry of {@code body} needs the server's cached reply: it changes something. A compound that
     * changes nothing, transactional or not, is sent with {@code sa_cachethis} clear, so its reply may fill the
     * whole {@code ca_maxresponsesize} instead of {@code ca_maxresponsesize_cached}. Besides the operations
     * that only look, an OPEN of an existing file for reading that denies nothing counts as changing nothing
     * when a CLOSE of the current stateid in the same compound ends it (vread's OPEN, READ, CLOSE): run again,
     * it opens and closes again and leaves the same state.
     */
    public static boolean needsCachedReply(COMPOUND4args body) {
        return needsCachedReply(body.argarray);
    }

    /** {@link #needsCachedReply(COMPOUND4args)} of the operations {@code ops}. */
    public static boolean needsCachedReply(nfs_argop4[] ops) {
        int unclosedOpens = 0;
        for (nfs_argop4 op : ops) {
            if (RERUNNABLE.contains(op.argop)) {
                continue;
            }
            if (op.argop == OP_OPEN && op.args instanceof OPEN4args open && readsOnly(open)) {
                unclosedOpens++;
            } else if (op.argop == OP_CLOSE && op.args instanceof CLOSE4args close && unclosedOpens > 0
                    && isCurrentStateid(close.open_stateid)) {
                unclosedOpens--;
            } else {
                return true;
            }
        }
        return unclosedOpens > 0;
    }

    /** An OPEN of an existing file (by name or handle), for reading only, denying nothing, no delegation asked. */
    private static boolean readsOnly(OPEN4args open) {
        return open.openhow != null && open.openhow.opentype == opentype4.OPEN4_NOCREATE
                && open.share_access == OPEN4args.OPEN4_SHARE_ACCESS_READ
                && open.share_deny == OPEN4args.OPEN4_SHARE_DENY_NONE && open.claim != null
                && (open.claim.claim == open_claim_type4.CLAIM_NULL || open.claim.claim == open_claim_type4.CLAIM_FH);
    }

    private static boolean isCurrentStateid(stateid4 s) {
        if (s == null || s.seqid != 1 || s.other == null) {
            return false;
        }
        for (byte b : s.other) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static COMPOUND4args withSequence(COMPOUND4args body, SEQUENCE4args sequence) {
        COMPOUND4args args = new COMPOUND4args();
        args.tag = body.tag;
        args.tagBytes = body.tagBytes;
        args.minorversion = body.minorversion;
        args.argarray = new nfs_argop4[body.argarray.length + 1];
        args.argarray[0] = new nfs_argop4(OP_SEQUENCE, sequence);
        System.arraycopy(body.argarray, 0, args.argarray, 1, body.argarray.length);
        return args;
    }

    private int takeSlot() throws IOException {
        try {
            while (true) {
                Integer slot = freeSlots.poll(100, java.util.concurrent.TimeUnit.MILLISECONDS);
                if (slot != null) {
                    return slot;
                }
                if (retiredSlots.get() >= slotSequence.length) {
                    throw new IOException("no slot of " + this + " is usable: each one's last request got no reply");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a free slot");
        }
    }

    /**
     * DESTROY_SESSION and DESTROY_CLIENTID, when the connection is still open. Statuses other than
     * NFS4_OK (the server restarted and forgot the session, say) are logged, not thrown: there is nothing
     * left to destroy then. Calling it again does nothing.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (!connection.isOpen()) {
            return;
        }
        CompoundResult destroyed = send(connection, new CompoundBuilder().tag("destroy_session")
                .destroySession(sessionId).build());
        CompoundResult forgotten = send(connection, new CompoundBuilder().tag("destroy_clientid")
                .destroyClientId(clientId).build());
        if (!destroyed.isOk() || !forgotten.isOk()) {
            LOG.debug("closing session: {}; {}", destroyed, forgotten);
        }
    }

    @Override
    public String toString() {
        return "Nfs41Session[client " + Long.toHexString(clientId) + ", session "
                + java.util.HexFormat.of().formatHex(sessionId) + ", " + slotSequence.length + " slots]";
    }
}
