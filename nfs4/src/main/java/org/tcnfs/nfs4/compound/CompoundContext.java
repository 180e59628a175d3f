package org.tcnfs.nfs4.compound;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.tcnfs.nfs4.state.NfsSession;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.status.DelayException;
import org.tcnfs.nfs4.status.NoFileHandleException;
import org.tcnfs.nfs4.status.RestoreFhException;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.COMPOUND4res;

/**
 * The state of one COMPOUND while it runs: who sent it, the current and saved file handles and stateids,
 * the session it runs in, and a place for layers above to keep their own per-compound data.
 *
 * <p>Belongs to one request and one thread; not thread-safe.
 */
public final class CompoundContext {
    private final ServerContext server;
    private final int minorVersion;
    private final int procedure;
    private final String tag;
    private final Credential credential;
    private final InetAddress clientAddress;
    private final Object connection;
    private final int requestBytes;
    private final org.tcnfs.nfs4.rpc.SpanningTransactions.Call spanningTxn;
    private final VirtualFileSystem fs;

    private Inode currentFh;
    /** The object whose attributes {@link #getattr} keeps, and those attributes; null when none. */
    private Inode attributesOf;
    private Stat attributes;
    private Inode savedFh;
    private StateId currentStateId;
    private StateId savedStateId;
    private NfsSession session;
    private COMPOUND4res replay;
    private Consumer<COMPOUND4res> replyCache;
    private int opIndex;
    private int opCount;
    private Object extension;
    private long requestFingerprint;
    private ReplySizeLimit replySizeLimit;
    private IntPredicate plannedRetransmissions;

    private CompoundContext(Builder b) {
        this.server = Objects.requireNonNull(b.server, "server");
        this.minorVersion = b.minorVersion;
        this.procedure = b.procedure;
        this.tag = Objects.requireNonNull(b.tag, "tag");
        this.credential = Objects.requireNonNull(b.credential, "credential");
        this.clientAddress = Objects.requireNonNull(b.clientAddress, "clientAddress");
        this.connection = Objects.requireNonNull(b.connection, "connection");
        this.requestBytes = b.requestBytes;
        this.requestFingerprint = b.requestFingerprint;
        this.spanningTxn = b.spanningTxn;
        this.fs = server.fileSystems().forCaller(credential, clientAddress);
    }

    public static Builder builder() {
        return new Builder();
    }

    public ServerContext server() {
        return server;
    }

    public int minorVersion() {
        return minorVersion;
    }

    /** The RPC procedure number: 1 for COMPOUND; the transaction flag sets its most significant bit. */
    public int procedure() {
        return procedure;
    }

    public String tag() {
        return tag;
    }

    /** The caller's credential as sent (AUTH_SYS), before any export squashing. */
    public Credential credential() {
        return credential;
    }

    public InetAddress clientAddress() {
        return clientAddress;
    }

    /** Identifies the transport connection the request came on (for BIND_CONN_TO_SESSION). */
    public Object connection() {
        return connection;
    }

    /** Size of the request as received, in bytes. */
    public int requestBytes() {
        return requestBytes;
    }

    /** The file systems this caller sees (exports under the pseudo root, with its rights applied). */
    public VirtualFileSystem fs() {
        return fs;
    }

    /**
     * The attributes of {@code inode} as {@link #fs()} gives them, read once per compound: a second call for the
     * same object returns what the first one read, as long as only operations that change nothing ran in
     * between (the engine calls {@link #forgetAttributes()} before every other one). So PUTFH, then LOOKUP's or
     * GETATTR's look at the same object, resolve it once. One object is kept, the last one asked for.
     *
     * @throws IOException what {@code fs().getattr} throws (nothing is kept then)
     */
    public Stat getattr(Inode inode) throws IOException {
        if (attributes != null && inode.equals(attributesOf)) {
            return attributes;
        }
        Stat stat = fs.getattr(inode);
        attributesOf = inode;
        attributes = stat;
        return stat;
    }

    /**
     * Keeps {@code stat}, which the file system just read for {@code inode} (a LOOKUP that found it), as
     * {@link #getattr} of {@code inode} would have: a GETATTR that follows reads no more.
     */
    public void keepAttributes(Inode inode, Stat stat) {
        attributesOf = inode;
        attributes = stat;
    }

    /** Forgets the attributes {@link #getattr} keeps: the next call reads them again. */
    public void forgetAttributes() {
        attributesOf = null;
        attributes = null;
    }

    /**
     * The current file handle.
     *
     * @throws NoFileHandleException if there is none
     */
    public Inode currentInode() throws NoFileHandleException {
        if (currentFh == null) {
            throw new NoFileHandleException();
        }
        return currentFh;
    }

    public boolean hasCurrentInode() {
        return currentFh != null;
    }

    /** Sets the current file handle; the current stateid is cleared, as RFC 8881 16.2.3.1.2 requires. */
    public void setCurrentInode(Inode inode) {
        this.currentFh = Objects.requireNonNull(inode);
        this.currentStateId = null;
    }

    /**
     * Leaves the compound without a current file handle and current stateid: SECINFO and SECINFO_NO_NAME
     * consume the current file handle (RFC 8881 section 2.6.3.1.1.8), so a following operation that needs
     * one fails with NFS4ERR_NOFILEHANDLE.
     */
    public void clearCurrentInode() {
        this.currentFh = null;
        this.currentStateId = null;
    }

    /**
     * The saved file handle.
     *
     * @throws NoFileHandleException if there is none
     */
    public Inode savedInode() throws NoFileHandleException {
        if (savedFh == null) {
            throw new NoFileHandleException("no saved filehandle");
        }
        return savedFh;
    }

    /** SAVEFH: the current file handle and stateid become the saved ones. */
    public void saveCurrent() throws NoFileHandleException {
        savedFh = currentInode();
        savedStateId = currentStateId;
    }

    /** RESTOREFH: the saved file handle and stateid become the current ones. */
    public void restoreSaved() throws RestoreFhException {
        if (savedFh == null) {
            throw new RestoreFhException();
        }
        currentFh = savedFh;
        currentStateId = savedStateId;
    }

    /** The current stateid of NFSv4.1, or {@code null} if no operation set one since the last PUTFH. */
    public StateId currentStateId() {
        return currentStateId;
    }

    public void setCurrentStateId(StateId stateId) {
        this.currentStateId = stateId;
    }

    /** The session of this compound (set by SEQUENCE), or {@code null}. */
    public NfsSession session() {
        return session;
    }

    public void setSession(NfsSession session) {
        this.session = session;
    }

    /**
     * How the plan of this compound (made before it ran, to lock what it touches) took its NFSv4.0 OPENs:
     * {@code planned.test(i)} is true where operation {@code i} was taken for a retransmission of its open
     * owner's last request (answered from the last reply, making the file opened then the current file). Unset:
     * nothing was planned.
     */
    public void planRetransmissions(IntPredicate planned) {
        this.plannedRetransmissions = Objects.requireNonNull(planned, "planned");
    }

    /**
     * Called by a sequenced OPEN under its owner's lock, when it knows whether it is a retransmission: if the
     * plan took it the other way (another request of the owner ran between planning and now), the plan locked
     * and backed up another file than the one the OPEN makes current, so the operation goes no further.
     *
     * @throws DelayException if the plan took the operation the other way; the client retries and is planned anew
     */
    public void checkPlannedRetransmission(boolean retransmission) throws DelayException {
        if (plannedRetransmissions != null && plannedRetransmissions.test(opIndex) != retransmission) {
            throw new DelayException("the open owner's last request changed since the compound was planned ("
                    + (retransmission ? "now" : "no longer") + " a retransmission)");
        }
    }

    /** A cached reply SEQUENCE found for a retransmission, or {@code null}. */
    public COMPOUND4res replay() {
        return replay;
    }

    /** SEQUENCE found this request to be a retransmission; the engine answers with {@code cached}. */
    public void setReplay(COMPOUND4res cached) {
        this.replay = Objects.requireNonNull(cached);
    }

    /** Where the engine stores the reply once it is complete (the SEQUENCE slot), or {@code null}. */
    public Consumer<COMPOUND4res> replyCache() {
        return replyCache;
    }

    public void setReplyCache(Consumer<COMPOUND4res> replyCache) {
        this.replyCache = replyCache;
    }

    /** The reply size this compound may use (set by SEQUENCE from its session), or {@code null}: no limit. */
    public ReplySizeLimit replySizeLimit() {
        return replySizeLimit;
    }

    public void setReplySizeLimit(ReplySizeLimit replySizeLimit) {
        this.replySizeLimit = replySizeLimit;
    }

    /** Index of the operation running now. */
    public int opIndex() {
        return opIndex;
    }

    /** Number of operations in the compound. */
    public int opCount() {
        return opCount;
    }

    void setPosition(int index, int count) {
        this.opIndex = index;
        this.opCount = count;
    }

    /**
     * A fingerprint of the request's bytes, equal for byte-identical retransmissions; SEQUENCE uses it to
     * tell a retransmission from a new request that reuses a sequence id.
     */
    public long requestFingerprint() {
        return requestFingerprint;
    }

    /**
     * The id of the transaction that spans compounds this compound belongs to (a TXN_COMPOUND, see
     * {@link org.tcnfs.nfs4.rpc.SpanningTransactions}), or {@code null} for a COMPOUND.
     */
    public org.tcnfs.nfs4.rpc.SpanningTransactions.Call spanningTxn() {
        return spanningTxn;
    }

    /** Data a compound hook keeps for this compound (a transaction, say), or {@code null}. */
    public Object extension() {
        return extension;
    }

    public void setExtension(Object extension) {
        this.extension = extension;
    }

    /** Builder for a request's context; every setting but the request size is required. */
    public static final class Builder {
        private ServerContext server;
        private int minorVersion;
        private int procedure = 1;
        private String tag = "";
        private Credential credential;
        private InetAddress clientAddress;
        private Object connection;
        private int requestBytes;
        private long requestFingerprint;
        private org.tcnfs.nfs4.rpc.SpanningTransactions.Call spanningTxn;

        private Builder() {
        }

        public Builder server(ServerContext server) {
            this.server = server;
            return this;
        }

        public Builder minorVersion(int minorVersion) {
            this.minorVersion = minorVersion;
            return this;
        }

        public Builder procedure(int procedure) {
            this.procedure = procedure;
            return this;
        }

        public Builder tag(String tag) {
            this.tag = tag;
            return this;
        }

        public Builder credential(Credential credential) {
            this.credential = credential;
            return this;
        }

        public Builder clientAddress(InetAddress clientAddress) {
            this.clientAddress = clientAddress;
            return this;
        }

        public Builder connection(Object connection) {
            this.connection = connection;
            return this;
        }

        public Builder requestBytes(int requestBytes) {
            this.requestBytes = requestBytes;
            return this;
        }

        /** See {@link CompoundContext#requestFingerprint()}. */
        public Builder requestFingerprint(long requestFingerprint) {
            this.requestFingerprint = requestFingerprint;
            return this;
        }

        /** See {@link CompoundContext#spanningTxn()}. */
        public Builder spanningTxn(org.tcnfs.nfs4.rpc.SpanningTransactions.Call call) {
            this.spanningTxn = call;
            return this;
        }

        public CompoundContext build() {
            return new CompoundContext(this);
        }
    }
}
