package org.tcnfs.nfs4.state;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A client known to the server: the record EXCHANGE_ID creates and CREATE_SESSION confirms (RFC 8881
 * 18.35 and 18.36), with its sessions, its lease and its reclaim status; or, for NFSv4.0
 * ({@link #minorVersion()} 0), the record SETCLIENTID creates and SETCLIENTID_CONFIRM confirms (RFC 7530
 * 16.33, 16.34), with its callback address and confirm verifier and no sessions.
 *
 * <p>Thread-safe. The lifecycle (unconfirmed, confirmed, expired) is driven by the {@link StateHandler};
 * other layers read it.
 */
public class NfsClient {
    private final long clientId;
    private final ClientOwner owner;
    private final int principalUid;
    private final Map<SessionId, NfsSession> sessions = new ConcurrentHashMap<>();
    private final AtomicBoolean reclaimComplete = new AtomicBoolean();
    private volatile long lastRenewMillis;
    private volatile boolean confirmed;
    private volatile boolean expired;
    private final int minorVersion;
    // NFSv4.0 only: SETCLIENTID's callback and the verifier SETCLIENTID_CONFIRM presents (RFC 7530 16.33);
    // changed by a confirmed callback update, under the ClientRegistry's lock.
    private volatile ClientCallback callback;
    private volatile byte[] confirmVerifier;

    // CREATE_SESSION's sequence and reply cache (RFC 8881 18.36.4); guarded by the ClientRegistry's lock.
    private int createSessionSequence;
    private NfsSession lastCreatedSession;
    // What the client's record and state are charged in its address's ClientMemory account; set by the
    // ClientRegistry before the record is published.
    private volatile ClientCharge charge = ClientCharge.NONE;

    /**
     * A confirmed client with the given id and an owner made from it, for tests and for layers that need
     * a client without the protocol exchange.
     */
    public NfsClient(long clientId) {
        this(clientId, new ClientOwner(new OwnerId(("client-" + clientId).getBytes(StandardCharsets.UTF_8)), new byte[8]),
                0, 0, 0L);
        this.confirmed = true;
    }

    NfsClient(long clientId, ClientOwner owner, int principalUid, int firstCreateSessionSequence, long nowMillis) {
        this.clientId = clientId;
        this.owner = Objects.requireNonNull(owner);
        this.principalUid = principalUid;
        this.createSessionSequence = firstCreateSessionSequence - 1;
        this.lastRenewMillis = nowMillis;
        this.minorVersion = 1;
    }

    /** An unconfirmed NFSv4.0 client record (SETCLIENTID). */
    NfsClient(long clientId, ClientOwner owner, int principalUid, ClientCallback callback, byte[] confirmVerifier,
            long nowMillis) {
        this.clientId = clientId;
        this.owner = Objects.requireNonNull(owner);
        this.principalUid = principalUid;
        this.lastRenewMillis = nowMillis;
        this.minorVersion = 0;
        this.callback = Objects.requireNonNull(callback);
        this.confirmVerifier = confirmVerifier.clone();
    }

    /**
     * A confirmed NFSv4.0 client with the given id and an owner made from it, for tests and for layers
     * that need a client without the protocol exchange.
     */
    public static NfsClient confirmedNfs40(long clientId) {
        NfsClient c = new NfsClient(clientId,
                new ClientOwner(new OwnerId(("client40-" + clientId).getBytes(StandardCharsets.UTF_8)), new byte[8]),
                0, new ClientCallback(0, "tcp", "0.0.0.0.0.0", 0), new byte[8], 0L);
        c.confirmed = true;
        return c;
    }

    /** The client id the server assigned. */
    public long clientId() {
        return clientId;
    }

    /** 0 for a client of SETCLIENTID (NFSv4.0), 1 for one of EXCHANGE_ID (NFSv4.1). */
    public int minorVersion() {
        return minorVersion;
    }

    /** The callback address an NFSv4.0 client gave in SETCLIENTID; {@code null} for NFSv4.1 clients. */
    public ClientCallback callback() {
        return callback;
    }

    /** The owner and verifier the client sent in EXCHANGE_ID (or SETCLIENTID). */
    public ClientOwner owner() {
        return owner;
    }

    /** The uid of the AUTH_SYS principal that created the client (EXCHANGE_ID). */
    public int principalUid() {
        return principalUid;
    }

    /** Whether a CREATE_SESSION confirmed the client; only confirmed clients may hold state. */
    public boolean isConfirmed() {
        return confirmed;
    }

    /** Whether the client's lease ran out or it was destroyed; its state is released or being released. */
    public boolean isExpired() {
        return expired;
    }

    /** Whether the client sent its global RECLAIM_COMPLETE: it reclaims nothing more (RFC 8881 18.51). */
    public boolean reclaimComplete() {
        return reclaimComplete.get();
    }

    /** The client's live sessions. */
    public Collection<NfsSession> sessions() {
        return List.copyOf(sessions.values());
    }

    /** When the lease was last renewed, in milliseconds of the server's clock. */
    public long lastRenewMillis() {
        return lastRenewMillis;
    }

    @Override
    public String toString() {
        return Long.toHexString(clientId) + (confirmed ? "" : " (unconfirmed)") + " owner " + owner;
    }

    /** Whether {@code verifier} is the one SETCLIENTID gave this NFSv4.0 record. */
    boolean confirmVerifierIs(byte[] verifier) {
        byte[] mine = confirmVerifier;
        return mine != null && Arrays.equals(mine, verifier);
    }

    /** A confirmed callback update (RFC 7530 16.34): the new callback and confirm verifier. */
    void updateCallback(ClientCallback newCallback, byte[] newConfirmVerifier) {
        this.callback = Objects.requireNonNull(newCallback);
        this.confirmVerifier = newConfirmVerifier.clone();
    }

    byte[] confirmVerifier() {
        byte[] mine = confirmVerifier;
        return mine == null ? null : mine.clone();
    }

    void renew(long nowMillis) {
        if (nowMillis > lastRenewMillis) {
            lastRenewMillis = nowMillis;
        }
    }

    boolean leaseLapsed(long nowMillis, long leaseMillis) {
        return nowMillis - lastRenewMillis > leaseMillis;
    }

    /** Whether a session of this client runs a request that is not yet taken as lost. */
    boolean hasActiveRequests(long nowMillis, long staleAfterMillis) {
        for (NfsSession s : sessions.values()) {
            if (s.slots().hasActiveRequests(nowMillis, staleAfterMillis)) {
                return true;
            }
        }
        return false;
    }

    void confirm() {
        confirmed = true;
    }

    ClientCharge charge() {
        return charge;
    }

    void chargeTo(ClientCharge newCharge) {
        this.charge = newCharge;
    }

    /** Marks the client expired; caller holds this client's monitor. */
    void markExpired() {
        expired = true;
    }

    boolean markReclaimComplete() {
        return reclaimComplete.compareAndSet(false, true);
    }

    void addSession(NfsSession session) {
        sessions.put(session.id(), session);
    }

    void removeSession(NfsSession session) {
        sessions.remove(session.id());
    }

    int sessionCount() {
        return sessions.size();
    }

    int createSessionSequence() {
        return createSessionSequence;
    }

    NfsSession lastCreatedSession() {
        return lastCreatedSession;
    }

    void createSessionDone(int sequence, NfsSession session) {
        this.createSessionSequence = sequence;
        this.lastCreatedSession = session;
    }
}
