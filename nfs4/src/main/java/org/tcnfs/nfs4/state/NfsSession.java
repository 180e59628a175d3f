package org.tcnfs.nfs4.state;

import java.security.SecureRandom;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.WeakHashMap;
import org.tcnfs.nfs4.compound.NfsLimits;

/**
 * An NFSv4.1 session (RFC 8881 2.10): its id, its client, the channel attributes CREATE_SESSION
 * negotiated, the fore channel's slot table with the reply cache, and the connections bound to it.
 *
 * <p>Thread-safe.
 */
public class NfsSession {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SessionId id;
    private final NfsClient client;
    private final int createSequence;
    private final int flags;
    private final ChannelAttributes foreChannel;
    private final ChannelAttributes backChannel;
    private final SlotTable slots;
    private final long replyCacheBytes;
    private final Set<Object> connections = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
    private volatile int callbackProgram;
    private volatile boolean destroyed;

    /**
     * A session of {@code client} with a random id and the default limits, for tests and for layers that
     * need a session without the protocol exchange.
     */
    public NfsSession(NfsClient client) {
        this(randomId(), client, 0, 0, defaultChannel(), defaultChannel(), 0, Long.MAX_VALUE, 0);
    }

    /**
     * @param slotBytes the largest reply a slot keeps without being asked to (see {@link SlotTable})
     * @param replyCacheBytes what the session reserved of the {@link ReplyCacheBudget}
     */
    NfsSession(SessionId id, NfsClient client, int createSequence, int flags, ChannelAttributes foreChannel,
            ChannelAttributes backChannel, int callbackProgram, long slotBytes, long replyCacheBytes) {
        this.id = Objects.requireNonNull(id);
        this.client = Objects.requireNonNull(client);
        this.createSequence = createSequence;
        this.flags = flags;
        this.foreChannel = Objects.requireNonNull(foreChannel);
        this.backChannel = Objects.requireNonNull(backChannel);
        this.slots = new SlotTable(foreChannel.maxRequests(), slotBytes);
        this.replyCacheBytes = replyCacheBytes;
        this.callbackProgram = callbackProgram;
    }

    static SessionId randomId() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return new SessionId(b);
    }

    private static ChannelAttributes defaultChannel() {
        NfsLimits d = NfsLimits.DEFAULTS;
        return new ChannelAttributes(0, d.maxRequestBytes(), d.maxResponseBytes(), d.maxResponseBytes(),
                d.maxOperations(), d.maxSessionSlots());
    }

    public SessionId id() {
        return id;
    }

    /** The client that owns the session. */
    public NfsClient client() {
        return client;
    }

    /** The {@code csa_sequence} of the CREATE_SESSION that made this session. */
    public int createSequence() {
        return createSequence;
    }

    /** The {@code csr_flags} granted (CREATE_SESSION4_FLAG_*; this server grants none). */
    public int flags() {
        return flags;
    }

    /** The fore channel limits the server granted. */
    public ChannelAttributes foreChannel() {
        return foreChannel;
    }

    /** The back channel attributes, as the client gave them (the server sends no callbacks). */
    public ChannelAttributes backChannel() {
        return backChannel;
    }

    /** The fore channel slots and their reply cache. */
    public SlotTable slots() {
        return slots;
    }

    /** The bytes of the reply cache budget this session reserved (given back when it is destroyed). */
    long replyCacheBytes() {
        return replyCacheBytes;
    }

    /** The callback program number last given by CREATE_SESSION or BACKCHANNEL_CTL. */
    public int callbackProgram() {
        return callbackProgram;
    }

    /** Whether DESTROY_SESSION or the client's expiry ended this session. */
    public boolean isDestroyed() {
        return destroyed;
    }

    /** Connections bound to the session by BIND_CONN_TO_SESSION (held weakly). */
    public List<Object> connections() {
        synchronized (connections) {
            return List.copyOf(connections);
        }
    }

    /** Records that {@code connection} is bound to this session. */
    public void bindConnection(Object connection) {
        connections.add(Objects.requireNonNull(connection));
    }

    /** Records the callback program of BACKCHANNEL_CTL. */
    public void setCallbackProgram(int callbackProgram) {
        this.callbackProgram = callbackProgram;
    }

    void markDestroyed() {
        destroyed = true;
    }

    @Override
    public String toString() {
        return id + " of " + Long.toHexString(client.clientId());
    }
}
