package org.tcnfs.nfs4.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.status.BadSessionException;
import org.tcnfs.nfs4.status.CompleteAlreadyException;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.ResourceException;
import org.tcnfs.nfs4.status.StaleClientIdException;
import org.tcnfs.nfs4.xdr.COMPOUND4res;

/**
 * All client, session, open and lock state of one server: client records and sessions (with their slot
 * reply caches), leases, the grace period, and the {@link OpenStateTable} of opens and locks.
 *
 * <h2>Leases</h2>
 * Every SEQUENCE renews its client's lease ({@link NfsLimits#lease()}), and so does the end of every
 * request; an NFSv4.0 client's lease is renewed by RENEW and by every operation that names its client id or
 * one of its stateids (RFC 7530 9.5). A daemon thread ("tcnfs-lease-reaper") runs {@link #reapExpired()}
 * periodically: a client whose lease ran out and that runs no request loses its sessions, and its opens
 * and locks are released through {@link OpenStateTable#releaseClient}. A SEQUENCE that finds its client's lease run out expires
 * the client at once and answers NFS4ERR_BADSESSION, so the outcome never depends on the reaper's timing.
 * All time decisions use the injected {@link Clock}.
 *
 * <h2>Grace period and the client record</h2>
 * {@link #inGrace()} is true for {@link NfsLimits#grace()} after the start (grace zero: never). When the
 * handler is given a record directory, it keeps there a small durable list of the owners of confirmed
 * clients (file {@code clients}, replaced with write, fsync, atomic rename, fsync of the directory; see
 * {@link ClientRecord}), the server's install id ({@code server-id}) and the boot epoch of the last start
 * ({@code boot-epoch}: each start takes a later one, so client ids and stateids of a previous start are
 * stale even after a restart within the same second). At start it reads the list the
 * previous run left: the grace period then ends as soon as every listed client has sent RECLAIM_COMPLETE
 * (or DESTROY_CLIENTID), and at once when the list is empty, instead of making every start wait the whole
 * grace time. Without a directory, or with an unreadable list, the grace period runs its whole time.
 * During grace, non-reclaim OPEN and LOCK are answered NFS4ERR_GRACE by the open and lock layer.
 *
 * <p>Thread-safe. {@link #close()} stops the reaper; calling it twice is harmless.
 */
public class StateHandler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StateHandler.class);

    /** The outcome of SEQUENCE: the session, and whether the request is new or a retransmission. */
    public record Sequenced(NfsSession session, SlotTable.Admission admission) {
    }

    private final NfsLimits limits;
    private final SessionLimits sessionLimits;
    private final Clock clock;
    private final OpenStateTable opens;
    private final GracePeriod grace;
    private final ClientRegistry registry;
    private final ServerOwner serverOwner;
    private final ScheduledExecutorService reaper;

    /** State without a client record: the grace period runs its whole time after a start. */
    public StateHandler(NfsLimits limits, Clock clock) {
        this(builder(limits, clock));
    }

    /**
     * State with a client record in {@code recordDirectory} (created if missing).
     *
     * @throws UncheckedIOException if the directory cannot be created or written
     */
    public StateHandler(NfsLimits limits, Clock clock, Path recordDirectory) {
        this(builder(limits, clock).recordDirectory(Objects.requireNonNull(recordDirectory)));
    }

    private StateHandler(Builder b) {
        this.limits = Objects.requireNonNull(b.limits, "limits");
        this.clock = Objects.requireNonNull(b.clock, "clock");
        ClientRecord record = null;
        Set<OwnerId> previous = null;
        String installId = null;
        long bootEpoch = clock.millis() / 1000;
        if (b.recordDirectory != null) {
            try {
                record = ClientRecord.open(b.recordDirectory);
                previous = record.readPrevious();
                installId = record.serverId();
                bootEpoch = record.nextBootEpoch(bootEpoch);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot use client record directory " + b.recordDirectory, e);
            }
        }
        this.opens = new OpenStateTable(StateIdGenerator.forBoot((int) bootEpoch), clock);
        this.grace = new GracePeriod(clock.millis(), limits.grace(), previous);
        this.sessionLimits = b.sessionLimits != null ? b.sessionLimits : SessionLimits.DEFAULTS;
        opens.maxOwnersPerClient(sessionLimits.maxOwnersPerClient());
        this.registry = new ClientRegistry(limits, sessionLimits, clock, opens, grace, record, bootEpoch);
        this.serverOwner = b.serverOwner != null ? b.serverOwner : defaultOwner(installId);
        if (limits.grace().isZero()) {
            LOG.info("no grace period");
        } else if (previous == null) {
            LOG.info("grace period of {} s (no client record)", limits.grace().toSeconds());
        } else if (previous.isEmpty()) {
            LOG.info("no grace period: no client of the previous run has state to reclaim");
        } else {
            LOG.info("grace period of up to {} s for {} recorded client(s)", limits.grace().toSeconds(), previous.size());
        }
        Duration interval = b.reaperInterval != null ? b.reaperInterval : defaultInterval(limits.lease());
        this.reaper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tcnfs-lease-reaper");
            t.setDaemon(true);
            return t;
        });
        reaper.scheduleWithFixedDelay(this::reapInBackground, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
        if (grace.inGrace(clock.millis())) {
            // so that the grace period's end is logged when it comes, even if no request asks (the reaper's
            // rounds notice an early end: the last recorded client finished reclaiming)
            reaper.schedule(this::inGrace, Math.max(0, grace.endMillis() - clock.millis()), TimeUnit.MILLISECONDS);
        }
    }

    /** A builder for the optional settings: record directory, server owner, reaper interval. */
    public static Builder builder(NfsLimits limits, Clock clock) {
        return new Builder(limits, clock);
    }

    private static Duration defaultInterval(Duration lease) {
        Duration quarter = lease.dividedBy(4);
        Duration min = Duration.ofMillis(100);
        Duration max = Duration.ofSeconds(5);
        return quarter.compareTo(min) < 0 ? min : quarter.compareTo(max) > 0 ? max : quarter;
    }

    private static ServerOwner defaultOwner(String installId) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "localhost";
        }
        String id = "tcnfs@" + host + (installId == null ? "" : "/" + installId);
        return new ServerOwner(id, id);
    }

    public NfsLimits limits() {
        return limits;
    }

    /** The bounds of clients, sessions and reply caches. */
    public SessionLimits sessionLimits() {
        return sessionLimits;
    }

    /**
     * Estimated heap bytes of the records, sessions (without kept replies), owners, opens, lock states and
     * byte-range locks of all clients (at most {@link SessionLimits#clientMemoryBytes()}, but for the state
     * of requests running at once).
     */
    public long clientMemoryBytes() {
        return registry.clientMemoryBytes();
    }

    /** Bytes of reply cache all sessions reserved together (at most {@link SessionLimits#replyCacheBytes()}). */
    public long replyCacheReservedBytes() {
        return registry.replyCacheReservedBytes();
    }

    public Clock clock() {
        return clock;
    }

    /** Opens, locks and their stateids. */
    public OpenStateTable opens() {
        return opens;
    }

    /** How the server names itself in EXCHANGE_ID. */
    public ServerOwner serverOwner() {
        return serverOwner;
    }

    /** Whether the grace period runs: only reclaims may take open and lock state now (RFC 8881 8.4.2). */
    public boolean inGrace() {
        return grace.inGrace(clock.millis());
    }

    /**
     * Whether {@code client} may reclaim now: the grace period runs, the client has not sent
     * RECLAIM_COMPLETE, and its owner was recorded by the previous run (or no record is kept).
     */
    public boolean canReclaim(NfsClient client) {
        return !client.reclaimComplete() && grace.mayReclaim(client.owner().ownerId(), clock.millis());
    }

    /**
     * The confirmed client with this id.
     *
     * @throws StaleClientIdException if there is none (unknown, unconfirmed, expired, or from an earlier run)
     */
    public NfsClient client(long clientId) throws StaleClientIdException {
        return registry.client(clientId);
    }

    /** Number of client records, confirmed or not. */
    public int clientCount() {
        return registry.clientCount();
    }

    /** Number of confirmed clients still known (an NFSv4.1 client is confirmed by its first CREATE_SESSION). */
    public int confirmedClientCount() {
        return registry.confirmedClientCount();
    }

    /** Number of sessions not destroyed (by DESTROY_SESSION or their client's expiry). */
    public int sessionCount() {
        return registry.sessionCount();
    }

    /**
     * The session with this id.
     *
     * @throws BadSessionException if there is none
     */
    public NfsSession session(SessionId id) throws BadSessionException {
        return registry.session(id);
    }

    /**
     * EXCHANGE_ID: finds or creates the client record for {@code owner} (the case analysis of RFC 8881
     * 18.35.5).
     *
     * @param principalUid uid of the caller's AUTH_SYS credential
     * @throws NfsException CLID_INUSE, NOENT, NOT_SAME or PERM as that section says; DELAY when the client
     *     table is full of confirmed clients ({@link SessionLimits#maxClients()})
     */
    public ExchangeIdResult exchangeId(ClientOwner owner, int principalUid, ExchangeIdMode mode) throws NfsException {
        return registry.exchangeId(owner, principalUid, mode);
    }

    /**
     * EXCHANGE_ID from the source address {@code source}: as {@link #exchangeId(ClientOwner, int,
     * ExchangeIdMode)}, and DELAY also when the records created from that address reach
     * {@link SessionLimits#maxClientsPerAddress()} or their state {@link SessionLimits#clientMemoryPerAddressBytes()}
     * and none of them can be dropped (unconfirmed, lease lapsed, confirmed without state).
     */
    public ExchangeIdResult exchangeId(ClientOwner owner, int principalUid, ExchangeIdMode mode,
            java.net.InetAddress source) throws NfsException {
        return registry.exchangeId(owner, principalUid, mode, source);
    }

    /**
     * CREATE_SESSION: confirms the client if needed and creates a session, or returns the session made by
     * the request this one retransmits (RFC 8881 18.36.4).
     *
     * @throws NfsException STALE_CLIENTID, CLID_INUSE, SEQ_MISORDERED, TOOSMALL, SERVERFAULT; NOSPC when the
     *     client or the server holds as many sessions as allowed ({@link SessionLimits#maxSessions()})
     */
    public NfsSession createSession(CreateSessionRequest request, int principalUid) throws NfsException {
        return registry.createSession(request, principalUid);
    }

    /**
     * CREATE_SESSION from {@code source}: as {@link #createSession(CreateSessionRequest, int)}, and NOSPC also
     * when the clients created from the client's address hold {@link SessionLimits#maxSessionsPerAddress()}.
     */
    public NfsSession createSession(CreateSessionRequest request, int principalUid, java.net.InetAddress source)
            throws NfsException {
        return registry.createSession(request, principalUid, source);
    }

    /**
     * SEQUENCE: checks the session and the compound's size, renews the lease and asks the slot whether
     * the request is new or a retransmission (RFC 8881 18.46.3). A new request must be ended with
     * {@link #completeRequest}.
     *
     * @param opCount operations in the compound, SEQUENCE included
     * @param requestBytes size of the request
     * @throws NfsException BADSESSION, TOO_MANY_OPS, REQ_TOO_BIG, BADSLOT, BAD_HIGH_SLOT, DELAY,
     *     SEQ_MISORDERED, RETRY_UNCACHED_REP
     */
    public Sequenced sequence(SequenceRequest request, int opCount, int requestBytes) throws NfsException {
        return registry.sequence(request, opCount, requestBytes);
    }

    /** Ends a request SEQUENCE admitted: renews the lease and stores {@code reply} in the slot. */
    public void completeRequest(NfsSession session, SlotTable.NewRequest request, COMPOUND4res reply) {
        registry.complete(session, request, reply);
    }

    /**
     * DESTROY_SESSION.
     *
     * @throws BadSessionException if there is no such session
     */
    public void destroySession(SessionId id) throws BadSessionException {
        registry.destroySession(id);
    }

    /**
     * DESTROY_CLIENTID: removes a client without sessions, and without opens or locks unless its lease
     * expired (RFC 8881 18.50.3).
     *
     * @throws NfsException STALE_CLIENTID, CLIENTID_BUSY
     */
    public void destroyClient(long clientId) throws NfsException {
        registry.destroyClient(clientId);
    }

    /**
     * RECLAIM_COMPLETE for the whole client: it reclaims nothing more, and no longer holds the grace
     * period open.
     *
     * @throws CompleteAlreadyException on a second one
     */
    public void reclaimComplete(NfsClient client) throws CompleteAlreadyException {
        registry.reclaimComplete(client);
    }

    /**
     * SETCLIENTID (RFC 7530 16.33): records an unconfirmed NFSv4.0 client, or answers that another
     * principal's client uses the identity.
     *
     * @param principalUid uid of the caller's AUTH_SYS credential
     * @throws ResourceException when the client table is full of confirmed clients
     *     ({@link SessionLimits#maxClients()})
     */
    public SetClientIdResult setClientId(ClientOwner owner, ClientCallback callback, int principalUid)
            throws ResourceException {
        return registry.setClientId(owner, callback, principalUid);
    }

    /**
     * SETCLIENTID from {@code source}: as {@link #setClientId(ClientOwner, ClientCallback, int)}, and RESOURCE
     * also when the records created from that address reach {@link SessionLimits#maxClientsPerAddress()} or
     * their state {@link SessionLimits#clientMemoryPerAddressBytes()} and none of them can be dropped
     * (unconfirmed, lease lapsed, confirmed without state).
     */
    public SetClientIdResult setClientId(ClientOwner owner, ClientCallback callback, int principalUid,
            java.net.InetAddress source) throws ResourceException {
        return registry.setClientId(owner, callback, principalUid, source);
    }

    /**
     * SETCLIENTID_CONFIRM (RFC 7530 16.34).
     *
     * @throws NfsException CLID_INUSE, STALE_CLIENTID
     */
    public void confirmClientId(long clientId, byte[] verifier, int principalUid) throws NfsException {
        registry.confirmClientId(clientId, verifier, principalUid);
    }

    /**
     * The confirmed NFSv4.0 client {@code clientId}, its lease renewed: RENEW, and every NFSv4.0 operation
     * that names a client id (RFC 7530 9.5); operations that name a stateid renew through
     * {@link OpenStateTable#ownerOf} and {@link OpenStateTable#checkIo}.
     *
     * @throws NfsException EXPIRED, STALE_CLIENTID
     */
    public NfsClient renewNfs40(long clientId) throws NfsException {
        return registry.client40(clientId);
    }

    /**
     * Expires every client whose lease ran out, and forgets NFSv4.0 owners idle for a lease; the reaper
     * calls this, tests may too. Returns how many clients expired.
     */
    public int reapExpired() {
        int expired = registry.reapExpired();
        opens.pruneIdleOwners(limits.lease());
        return expired;
    }

    private void reapInBackground() {
        try {
            inGrace();
            reapExpired();
        } catch (RuntimeException e) {
            // The reaper must survive a failure in one round (a scheduled task that throws is never run again).
            LOG.error("lease reaper round failed", e);
        }
    }

    /** Stops the lease reaper. */
    @Override
    public void close() {
        reaper.shutdownNow();
    }

    /** Optional settings of a {@link StateHandler}. */
    public static final class Builder {
        private final NfsLimits limits;
        private final Clock clock;
        private Path recordDirectory;
        private ServerOwner serverOwner;
        private Duration reaperInterval;
        private SessionLimits sessionLimits;

        private Builder(NfsLimits limits, Clock clock) {
            this.limits = limits;
            this.clock = clock;
        }

        /** Keeps the client record in {@code dir} (see the class comment); {@code null}: no record. */
        public Builder recordDirectory(Path dir) {
            this.recordDirectory = dir;
            return this;
        }

        /** Names the server; default {@code tcnfs@<host>[/<install id>]} for both major id and scope. */
        public Builder serverOwner(ServerOwner owner) {
            this.serverOwner = owner;
            return this;
        }

        /** Bounds of clients, sessions and reply caches; default {@link SessionLimits#DEFAULTS}. */
        public Builder sessionLimits(SessionLimits limits) {
            this.sessionLimits = limits;
            return this;
        }

        /** How often the reaper looks for expired leases; default a quarter lease, within 0.1 to 5 s. */
        public Builder reaperInterval(Duration interval) {
            this.reaperInterval = interval;
            return this;
        }

        /**
         * @throws UncheckedIOException if the record directory cannot be created or written
         */
        public StateHandler build() {
            Objects.requireNonNull(limits, "limits");
            Objects.requireNonNull(clock, "clock");
            if (reaperInterval != null && (reaperInterval.isNegative() || reaperInterval.isZero())) {
                throw new IllegalArgumentException("reaper interval must be positive");
            }
            return new StateHandler(this);
        }
    }
}
