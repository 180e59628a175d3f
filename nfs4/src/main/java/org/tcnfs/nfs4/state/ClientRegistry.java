package org.tcnfs.nfs4.state;

import org.tcnfs.nfs4.xdr.CREATE_SESSION4args;

import java.io.IOException;
import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.status.BadSessionException;
import org.tcnfs.nfs4.status.ClidInUseException;
import org.tcnfs.nfs4.status.ClientIdBusyException;
import org.tcnfs.nfs4.status.CompleteAlreadyException;
import org.tcnfs.nfs4.status.ExpiredException;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NoEntException;
import org.tcnfs.nfs4.status.NoSpcException;
import org.tcnfs.nfs4.status.NotSameException;
import org.tcnfs.nfs4.status.PermException;
import org.tcnfs.nfs4.status.ReqTooBigException;
import org.tcnfs.nfs4.status.ResourceException;
import org.tcnfs.nfs4.status.DelayException;
import org.tcnfs.nfs4.status.SeqMisorderedException;
import org.tcnfs.nfs4.status.ServerFaultException;
import org.tcnfs.nfs4.status.StaleClientIdException;
import org.tcnfs.nfs4.status.TooManyOpsException;
import org.tcnfs.nfs4.xdr.COMPOUND4res;

/**
 * Client records and sessions: the state machine of EXCHANGE_ID, CREATE_SESSION, SEQUENCE,
 * DESTROY_SESSION, DESTROY_CLIENTID and lease expiry; and of NFSv4.0's SETCLIENTID, SETCLIENTID_CONFIRM
 * and RENEW (RFC 7530 16.33, 16.34, 16.28), whose records are kept apart from NFSv4.1's (the same client
 * identity may be used in both) and are not written to the client record (NFSv4.0 clients send no
 * RECLAIM_COMPLETE, so the record could not tell when they finished reclaiming).
 *
 * <p>Locking: changes to the set of clients and sessions take this object's monitor; SEQUENCE does not,
 * it takes the client's monitor (to decide between renewal and expiry atomically) and then the slot's.
 * The order is registry, client, slot; nothing takes the registry while holding a client or slot. The
 * open state of dropped clients is released after the registry's monitor is left.
 */
final class ClientRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(ClientRegistry.class);

    /** Most sessions one client may hold at once. */
    static final int MAX_SESSIONS_PER_CLIENT = 16;
    /** How many NFSv4.0 clients that expired are remembered, to answer NFS4ERR_EXPIRED for their id. */
    private static final int EXPIRED_CLIENTS_REMEMBERED = 4096;

    private final NfsLimits limits;
    private final SessionLimits sessionLimits;
    private final ReplyCacheBudget replyCache;
    /** The estimated heap of each address's clients and of all of them; accounts guarded by this monitor. */
    private final ClientMemory memory;
    private final Clock clock;
    private final OpenStateTable opens;
    private final GracePeriod grace;
    private final ClientRecord record;
    private final long leaseMillis;
    private final long staleAfterMillis;
    private final long bootPrefix;
    private final AtomicInteger nextClient = new AtomicInteger();

    /**
     * How long an unconfirmed record (EXCHANGE_ID without CREATE_SESSION, SETCLIENTID without
     * SETCLIENTID_CONFIRM) is kept at most, if the lease is longer: a client confirms at once, and records
     * nobody confirms only take room (RFC 8881 18.35.4 lets a server forget them; the client then gets
     * NFS4ERR_STALE_CLIENTID and starts over).
     */
    static final long UNCONFIRMED_MILLIS = 15_000;

    private final Map<Long, NfsClient> clients = new ConcurrentHashMap<>();
    private final Map<SessionId, NfsSession> sessions = new ConcurrentHashMap<>();
    private final Map<OwnerId, NfsClient> confirmed = new HashMap<>();
    /** The source address each client record was created from (absent: not known); guarded by this monitor. */
    private final Map<Long, InetAddress> sources = new HashMap<>();
    private final LimitWarning addressFull = new LimitWarning();
    private final Map<OwnerId, NfsClient> unconfirmed = new HashMap<>();
    // NFSv4.0 records, guarded by this object's monitor. A callback update's unconfirmed record shares its id
    // with the confirmed one, so unconfirmed records are also indexed by id; records with an id of their own
    // are in `clients` too.
    private final Map<OwnerId, NfsClient> confirmed40 = new HashMap<>();
    private final Map<OwnerId, NfsClient> unconfirmed40 = new HashMap<>();
    private final Map<Long, NfsClient> unconfirmed40ById = new HashMap<>();
    private final Set<Long> expired40 = Collections.synchronizedSet(Collections.newSetFromMap(
            new LinkedHashMap<>(64, 0.75f, false) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                    return size() > EXPIRED_CLIENTS_REMEMBERED;
                }
            }));
    private final SecureRandom random = new SecureRandom();
    private final LimitWarning clientsFull = new LimitWarning();
    private final LimitWarning sessionsFull = new LimitWarning();

    /**
     * A warning about a limit that was reached, logged at most once a minute with the number of times it
     * was reached in between, so a flood of refused requests does not flood the log. Guarded by the
     * registry's monitor.
     */
    private static final class LimitWarning {
        private static final long INTERVAL_MILLIS = 60_000;
        private long lastLogged = Long.MIN_VALUE;
        private long suppressed;

        void warn(long now, String message) {
            if (lastLogged != Long.MIN_VALUE && now - lastLogged < INTERVAL_MILLIS) {
                suppressed++;
                return;
            }
            if (suppressed > 0) {
                LOG.warn("{} ({} more times since the last warning)", message, suppressed);
            } else {
                LOG.warn(message);
            }
            lastLogged = now;
            suppressed = 0;
        }
    }

    ClientRegistry(NfsLimits limits, SessionLimits sessionLimits, Clock clock, OpenStateTable opens, GracePeriod grace,
            ClientRecord record, long bootEpoch) {
        this.limits = limits;
        this.sessionLimits = sessionLimits;
        this.replyCache = new ReplyCacheBudget(sessionLimits);
        this.memory = new ClientMemory(sessionLimits);
        this.clock = clock;
        this.opens = opens;
        this.grace = grace;
        this.record = record;
        this.leaseMillis = limits.lease().toMillis();
        // A request that has not completed after this long is taken as lost (see SlotTable).
        this.staleAfterMillis = Math.max(2 * leaseMillis, 60_000L);
        // Client ids carry the boot epoch in their upper half, so ids of an earlier run are never reused.
        this.bootPrefix = bootEpoch << 32;
    }

    /** EXCHANGE_ID (RFC 8881 18.35.5): the client record to answer with, new or existing. */
    ExchangeIdResult exchangeId(ClientOwner owner, int principalUid, ExchangeIdMode mode) throws NfsException {
        return exchangeId(owner, principalUid, mode, null);
    }

    /** EXCHANGE_ID from {@code source} (null if not known: no per-address limit). */
    ExchangeIdResult exchangeId(ClientOwner owner, int principalUid, ExchangeIdMode mode, InetAddress source)
            throws NfsException {
        OwnerId key = owner.ownerId();
        long now = clock.millis();
        List<NfsClient> dropped = new ArrayList<>();
        ExchangeIdResult result;
        synchronized (this) {
            NfsClient conf = confirmed.get(key);
            if (mode == ExchangeIdMode.UPDATE) {
                if (conf == null) {
                    throw new NoEntException("no confirmed client to update");                  // case 9
                }
                if (conf.principalUid() != principalUid) {
                    throw new PermException("update by another principal");                      // case 8
                }
                if (!conf.owner().sameVerifier(owner)) {
                    throw new NotSameException("update with another verifier");                  // case 7
                }
                return ExchangeIdResult.of(conf);                                                 // case 6
            }
            if (conf != null) {
                if (conf.principalUid() != principalUid) {                                        // case 3
                    if (!tryExpireLocked(conf, now, dropped) && !tryTakeOverLocked(conf, dropped)) {
                        throw new ClidInUseException("owner " + key + " is in use by another principal");
                    }
                } else if (conf.owner().sameVerifier(owner)) {
                    return ExchangeIdResult.of(conf);                                             // case 2
                }
                // case 4 (client restarted): a new unconfirmed record; the old one goes when it is confirmed
            }
            NfsClient unconf = unconfirmed.get(key);
            if (unconf != null) {                                                                 // case 5
                dropLocked(unconf, dropped);
            }
            long cost = recordCost(owner);
            if (makeRoomForAddressLocked(source, cost, now, "EXCHANGE_ID", dropped)
                    && makeRoomLocked(now, cost, source, "EXCHANGE_ID", dropped)) {
                NfsClient created = new NfsClient(newClientId(), owner, principalUid, 1, now);     // case 1
                addRecordLocked(created, source, cost);
                unconfirmed.put(key, created);
                result = ExchangeIdResult.of(created);
                LOG.debug("new client {} from uid {}", created, principalUid);
            } else {
                result = null;
            }
        }
        releaseAndRecord(dropped);
        if (result == null) {
            // RFC 8881 allows EXCHANGE_ID neither NFS4ERR_NOSPC nor NFS4ERR_RESOURCE: the client is to retry later
            throw new DelayException("no room for another client record (settings max-clients, "
                    + "max-clients-per-address, client-memory, client-memory-per-address; source " + source
                    + "); EXCHANGE_ID of " + key + " refused");
        }
        return result;
    }

    /**
     * EXCHANGE_ID case 3 (RFC 8881 18.35.4) for a confirmed record whose lease still runs: another principal
     * may take the owner over when the record holds no state (no session, no open, lock or other stateid).
     * The old record is then removed at once, so its client id is stale and its sessions are gone. Caller
     * holds this monitor.
     *
     * @return whether the record was removed
     */
    private boolean tryTakeOverLocked(NfsClient conf, List<NfsClient> dropped) {
        if (conf.sessionCount() > 0 || opens.holdsState(conf)) {
            return false;
        }
        synchronized (conf) {
            conf.markExpired();
        }
        dropLocked(conf, dropped);
        LOG.info("client {} holds no state and is taken over by another principal", conf);
        return true;
    }

    /**
     * CREATE_SESSION (RFC 8881 18.36.4): the new session, or the cached one for a replay. The caller's
     * principal must be the one of EXCHANGE_ID only while the CREATE_SESSION confirms the record; once it
     * is confirmed (with SP4_NONE, the only state protection offered) any principal may create sessions.
     */
    NfsSession createSession(CreateSessionRequest request, int principalUid) throws NfsException {
        return createSession(request, principalUid, null);
    }

    /** CREATE_SESSION from {@code source} (null if not known). */
    NfsSession createSession(CreateSessionRequest request, int principalUid, InetAddress source)
            throws NfsException {
        long now = clock.millis();
        List<NfsClient> dropped = new ArrayList<>();
        NfsSession session;
        synchronized (this) {
            NfsClient client = clients.get(request.clientId());
            if (client == null || client.minorVersion() != 1) {
                throw new StaleClientIdException("unknown client id " + Long.toHexString(request.clientId()));
            }
            if (!client.isConfirmed() && client.principalUid() != principalUid) {
                throw new ClidInUseException("CREATE_SESSION confirming the client by another principal");
            }
            int last = client.createSessionSequence();
            if (client.isConfirmed() && request.sequence() == last && client.lastCreatedSession() != null) {
                LOG.debug("CREATE_SESSION {} of {} replayed from its cache", Integer.toUnsignedString(last), client);
                return client.lastCreatedSession();
            }
            if (request.sequence() != last + 1) {
                throw new SeqMisorderedException("CREATE_SESSION expects sequence "
                        + Integer.toUnsignedString(last + 1) + ", got " + Integer.toUnsignedString(request.sequence()));
            }
            ChannelAttributes fore = ChannelAttributes.negotiateFore(request.foreChannel(), limits);
            if (client.sessionCount() >= MAX_SESSIONS_PER_CLIENT) {
                throw new NoSpcException("client holds " + MAX_SESSIONS_PER_CLIENT + " sessions already");
            }
            if (sessions.size() >= sessionLimits.maxSessions()) {
                sessionsFull.warn(now, "CREATE_SESSION refused with NFS4ERR_NOSPC: " + sessions.size()
                        + " sessions exist (setting max-sessions)");
                throw new NoSpcException("the server holds " + sessions.size() + " sessions already");
            }
            InetAddress from = sources.getOrDefault(client.clientId(), source);
            if (from != null) {
                long ofAddress = sessions.values().stream()
                        .filter(s -> from.equals(sources.get(s.client().clientId()))).count();
                if (ofAddress >= sessionLimits.maxSessionsPerAddress()) {
                    addressFull.warn(now, "CREATE_SESSION from " + from + " refused with NFS4ERR_NOSPC: its clients "
                            + "hold " + ofAddress + " sessions (setting max-sessions-per-address)");
                    throw new NoSpcException("the clients of " + from + " hold " + ofAddress + " sessions already");
                }
            }
            long cost = sessionCost(fore);
            if (!client.charge().admits(cost)) {
                client.charge().warnRefused("CREATE_SESSION (NFS4ERR_NOSPC)", cost, now);
                throw new NoSpcException("the client state of " + from + " is at its memory budget");
            }
            if (!client.isConfirmed()) {
                confirmLocked(client, now, dropped);
            }
            ReplyCacheBudget.Grant grant = replyCache.reserve(fore, sessions.size());
            session = new NfsSession(newSessionIdLocked(), client, request.sequence(),
                    request.flags() & CREATE_SESSION4args.CREATE_SESSION4_FLAG_CONN_BACK_CHAN, grant.foreChannel(),
                    request.backChannel(), request.callbackProgram(), grant.slotBytes(), grant.reservedBytes());
            sessions.put(session.id(), session);
            client.addSession(session);
            client.charge().add(sessionCost(session.foreChannel()));
            client.createSessionDone(request.sequence(), session);
            client.renew(now);
            LOG.debug("session {} created", session);
        }
        releaseAndRecord(dropped);
        return session;
    }

    private void confirmLocked(NfsClient client, long now, List<NfsClient> dropped) throws ServerFaultException {
        OwnerId key = client.owner().ownerId();
        if (record != null) {
            Set<OwnerId> owners = new HashSet<>(confirmed.keySet());
            owners.add(key);
            owners.addAll(grace.stillExpected(now));
            try {
                record.write(owners);
            } catch (IOException e) {
                throw new ServerFaultException("cannot record client " + client + ": " + e, e);
            }
        }
        NfsClient old = confirmed.get(key);
        if (old != null) {
            synchronized (old) {
                old.markExpired();
            }
            dropLocked(old, dropped);
            LOG.info("client {} replaced by {} (client restart)", old, client);
        }
        unconfirmed.remove(key, client);
        confirmed.put(key, client);
        client.confirm();
    }

    /** The session {@code id}, or BADSESSION. */
    NfsSession session(SessionId id) throws BadSessionException {
        NfsSession s = sessions.get(id);
        if (s == null) {
            throw new BadSessionException("unknown session " + id);
        }
        return s;
    }

    /** SEQUENCE (RFC 8881 18.46.3): session checks, lease renewal or expiry, then the slot's decision. */
    StateHandler.Sequenced sequence(SequenceRequest request, int opCount, int requestBytes) throws NfsException {
        long now = clock.millis();
        NfsSession session = session(request.sessionId());
        NfsClient client = session.client();
        ChannelAttributes fore = session.foreChannel();
        SlotTable.Admission admission;
        synchronized (client) {
            if (client.isExpired() || session.isDestroyed()) {
                throw new BadSessionException("session " + session.id() + " is gone");
            }
            if (client.leaseLapsed(now, leaseMillis) && !client.hasActiveRequests(now, staleAfterMillis)) {
                client.markExpired();
                admission = null;
            } else {
                if (opCount > fore.maxOperations()) {
                    throw new TooManyOpsException(opCount + " operations, session allows " + fore.maxOperations());
                }
                if (requestBytes > fore.maxRequestSize()) {
                    throw new ReqTooBigException(requestBytes + " bytes, session allows " + fore.maxRequestSize());
                }
                SlotTable.ReplyCaching caching = request.cacheThis() || opCount == 1
                        ? SlotTable.ReplyCaching.KEEP : SlotTable.ReplyCaching.DROP;
                admission = session.slots().admit(request.slotId(), request.sequenceId(), request.highestSlotId(),
                        caching, request.fingerprint(), now, staleAfterMillis);
                client.renew(now);
            }
        }
        if (admission == null) {
            expireNow(client);
            throw new BadSessionException("lease of client " + client + " expired");
        }
        return new StateHandler.Sequenced(session, admission);
    }

    /** The end of a request admitted by {@link #sequence}: renews the lease, then frees the slot. */
    void complete(NfsSession session, SlotTable.NewRequest request, COMPOUND4res reply) {
        session.client().renew(clock.millis());
        session.slots().complete(request.slotId(), request.sequenceId(), reply);
    }

    /** DESTROY_SESSION (RFC 8881 18.37). */
    void destroySession(SessionId id) throws BadSessionException {
        synchronized (this) {
            NfsSession s = sessions.remove(id);
            if (s == null) {
                throw new BadSessionException("unknown session " + id);
            }
            replyCache.release(s.replyCacheBytes());
            s.markDestroyed();
            s.client().removeSession(s);
            s.client().charge().subtract(sessionCost(s.foreChannel()));
            LOG.debug("session {} destroyed", s);
        }
    }

    /** DESTROY_CLIENTID (RFC 8881 18.50). */
    void destroyClient(long clientId) throws NfsException {
        List<NfsClient> dropped = new ArrayList<>();
        synchronized (this) {
            NfsClient client = clients.get(clientId);
            if (client == null || client.minorVersion() != 1) {
                throw new StaleClientIdException("unknown client id " + Long.toHexString(clientId));
            }
            if (client.sessionCount() > 0) {
                throw new ClientIdBusyException("client " + client + " still has sessions");
            }
            if (!client.leaseLapsed(clock.millis(), leaseMillis) && opens.holdsState(client)) {
                // RFC 8881 18.50.3: opens, locks (or other state) under an unexpired lease keep the client
                throw new ClientIdBusyException("client " + client + " still holds opens or locks");
            }
            synchronized (client) {
                client.markExpired();
            }
            if (client.isConfirmed()) {
                grace.reclaimDone(client.owner().ownerId());
            }
            dropLocked(client, dropped);
            LOG.debug("client {} destroyed", client);
        }
        releaseAndRecord(dropped);
    }

    /** RECLAIM_COMPLETE (RFC 8881 18.51) for the whole client. */
    void reclaimComplete(NfsClient client) throws CompleteAlreadyException {
        if (!client.markReclaimComplete()) {
            throw new CompleteAlreadyException("client " + client + " completed its reclaims already");
        }
        grace.reclaimDone(client.owner().ownerId());
        LOG.debug("client {} completed its reclaims", client);
    }

    /** A confirmed client by id, or STALE_CLIENTID. */
    NfsClient client(long clientId) throws StaleClientIdException {
        NfsClient c = clients.get(clientId);
        if (c == null || !c.isConfirmed() || c.isExpired()) {
            throw new StaleClientIdException("unknown client id " + Long.toHexString(clientId));
        }
        return c;
    }

    int clientCount() {
        return clients.size();
    }

    synchronized int confirmedClientCount() {
        return confirmed.size();
    }

    int sessionCount() {
        return sessions.size();
    }

    // ---------------------------------------------------------------- NFSv4.0

    /**
     * SETCLIENTID (RFC 7530 16.33). Any unconfirmed record of the identity is replaced by a new one; it
     * keeps the confirmed record's client id when the verifier and the principal are the same (a callback
     * update), and gets a new id otherwise (a new client, or a client restart: the confirmed record stays
     * until SETCLIENTID_CONFIRM). Another principal is refused with NFS4ERR_CLID_INUSE while the confirmed
     * record holds state under an unexpired lease.
     */
    SetClientIdResult setClientId(ClientOwner owner, ClientCallback callback, int principalUid)
            throws ResourceException {
        return setClientId(owner, callback, principalUid, null);
    }

    /** SETCLIENTID from {@code source} (null if not known: no per-address limit). */
    SetClientIdResult setClientId(ClientOwner owner, ClientCallback callback, int principalUid, InetAddress source)
            throws ResourceException {
        OwnerId key = owner.ownerId();
        long now = clock.millis();
        List<NfsClient> dropped = new ArrayList<>();
        try {
            return setClientIdLocked(owner, key, callback, principalUid, now, dropped, source);
        } finally {
            releaseAndRecord(dropped);
        }
    }

    private SetClientIdResult setClientIdLocked(ClientOwner owner, OwnerId key, ClientCallback callback,
            int principalUid, long now, List<NfsClient> dropped, InetAddress source) throws ResourceException {
        synchronized (this) {
            NfsClient conf = confirmed40.get(key);
            if (conf != null && conf.principalUid() != principalUid && !conf.leaseLapsed(now, leaseMillis)
                    && opens.holdsState(conf)) {
                LOG.debug("SETCLIENTID for {} by uid {}: in use by uid {}", key, principalUid, conf.principalUid());
                return new SetClientIdResult.InUse(conf.callback());
            }
            NfsClient unconf = unconfirmed40.get(key);
            if (unconf != null) {
                forgetUnconfirmed40Locked(unconf);
            }
            boolean update = conf != null && conf.principalUid() == principalUid && conf.owner().sameVerifier(owner);
            long cost = recordCost(owner);
            if (!update && !(makeRoomForAddressLocked(source, cost, now, "SETCLIENTID", dropped)
                    && makeRoomLocked(now, cost, source, "SETCLIENTID", dropped))) {
                throw new ResourceException("no room for another client record (settings max-clients, "
                        + "max-clients-per-address, client-memory, client-memory-per-address; source " + source
                        + "); SETCLIENTID of " + key + " refused");
            }
            long id = update ? conf.clientId() : newClientId();
            byte[] confirm = newConfirmVerifier(conf, unconf);
            NfsClient created = new NfsClient(id, owner, principalUid, callback, confirm, now);
            unconfirmed40.put(key, created);
            unconfirmed40ById.put(id, created);
            if (!update) {
                addRecordLocked(created, source, cost);
            }
            LOG.debug("SETCLIENTID: unconfirmed NFSv4.0 client {} from uid {}{}", created, principalUid,
                    update ? " (callback update)" : "");
            return new SetClientIdResult.Accepted(id, confirm);
        }
    }

    /**
     * SETCLIENTID_CONFIRM (RFC 7530 16.34): confirms the unconfirmed record with this id and verifier.
     * For a callback update the confirmed record takes the new callback; otherwise the record becomes the
     * confirmed one, and a confirmed record of the same identity (the client before its restart) expires
     * with its state. A retransmission (the confirmed record has this verifier) changes nothing.
     *
     * @throws NfsException CLID_INUSE (another principal), STALE_CLIENTID (no such record and verifier)
     */
    void confirmClientId(long clientId, byte[] verifier, int principalUid) throws NfsException {
        long now = clock.millis();
        List<NfsClient> dropped = new ArrayList<>();
        synchronized (this) {
            NfsClient unconf = unconfirmed40ById.get(clientId);
            NfsClient known = clients.get(clientId);
            NfsClient conf = known != null && known.minorVersion() == 0 && known.isConfirmed() && !known.isExpired()
                    ? known : null;
            if ((unconf != null && unconf.principalUid() != principalUid)
                    || (conf != null && conf.principalUid() != principalUid)) {
                throw new ClidInUseException("SETCLIENTID_CONFIRM of client " + Long.toHexString(clientId)
                        + " by another principal");
            }
            if (unconf == null || !unconf.confirmVerifierIs(verifier)) {
                if (conf != null && conf.confirmVerifierIs(verifier)) {
                    conf.renew(now);
                    return;
                }
                throw new StaleClientIdException("no client " + Long.toHexString(clientId)
                        + " to confirm with this verifier");
            }
            OwnerId key = unconf.owner().ownerId();
            if (conf != null) {
                forgetUnconfirmed40Locked(unconf);
                conf.updateCallback(unconf.callback(), unconf.confirmVerifier());
                conf.renew(now);
                LOG.debug("client {} changed its callback", conf);
                return;
            }
            NfsClient old = confirmed40.get(key);
            if (old != null && old != unconf) {
                if (old.principalUid() != principalUid && opens.holdsState(old)) {
                    throw new ClidInUseException("client identity " + key + " is in use by another principal");
                }
                synchronized (old) {
                    old.markExpired();
                }
                dropLocked(old, dropped);
                LOG.info("client {} replaced by {} (client restart)", old, unconf);
            }
            unconfirmed40.remove(key, unconf);
            unconfirmed40ById.remove(clientId, unconf);
            confirmed40.put(key, unconf);
            unconf.confirm();
            unconf.renew(now);
            LOG.debug("NFSv4.0 client {} confirmed", unconf);
        }
        release(dropped);
    }

    /**
     * The confirmed NFSv4.0 client {@code clientId}, its lease renewed (RENEW, and every operation that
     * names a client id, RFC 7530 9.5). A client whose lease ran out expires now, with its state.
     *
     * @throws NfsException EXPIRED (the client expired or was replaced), STALE_CLIENTID (unknown or
     *     unconfirmed id, or one of another server instance)
     */
    NfsClient client40(long clientId) throws NfsException {
        NfsClient c = clients.get(clientId);
        if (c == null || c.minorVersion() != 0 || !c.isConfirmed()) {
            if (expired40.contains(clientId)) {
                throw new ExpiredException("the lease of client " + Long.toHexString(clientId) + " expired");
            }
            throw new StaleClientIdException("unknown client id " + Long.toHexString(clientId));
        }
        long now = clock.millis();
        boolean lapsed;
        synchronized (c) {
            if (c.isExpired()) {
                throw new ExpiredException("the lease of client " + c + " expired");
            }
            lapsed = c.leaseLapsed(now, leaseMillis);
            if (lapsed) {
                c.markExpired();
            } else {
                c.renew(now);
            }
        }
        if (lapsed) {
            expireNow(c);
            throw new ExpiredException("the lease of client " + c + " expired");
        }
        return c;
    }

    /** Removes an unconfirmed NFSv4.0 record (it holds no state); caller holds this monitor. */
    private void forgetUnconfirmed40Locked(NfsClient unconf) {
        unconfirmed40.remove(unconf.owner().ownerId(), unconf);
        unconfirmed40ById.remove(unconf.clientId(), unconf);
        if (clients.remove(unconf.clientId(), unconf)) {
            removeRecordLocked(unconf);
        }
        synchronized (unconf) {
            unconf.markExpired();
        }
    }

    /** 8 random bytes, not all zero, that differ from the verifiers of the records being replaced. */
    private byte[] newConfirmVerifier(NfsClient conf, NfsClient unconf) {
        byte[] v = new byte[8];
        do {
            random.nextBytes(v);
        } while (Arrays.equals(v, new byte[8]) || (conf != null && conf.confirmVerifierIs(v))
                || (unconf != null && unconf.confirmVerifierIs(v)));
        return v;
    }

    /** Expires every client whose lease ran out and that runs no request; returns how many. */
    int reapExpired() {
        long now = clock.millis();
        List<NfsClient> dropped = new ArrayList<>();
        long unconfirmedMillis = Math.min(leaseMillis, UNCONFIRMED_MILLIS);
        synchronized (this) {
            for (NfsClient c : List.copyOf(clients.values())) {
                if (!tryExpireLocked(c, now, dropped) && !c.isConfirmed()
                        && now - c.lastRenewMillis() > unconfirmedMillis) {
                    forgetUnconfirmedLocked(c, dropped);
                }
            }
            for (NfsClient u : List.copyOf(unconfirmed40ById.values())) {
                if (clients.get(u.clientId()) != u && now - u.lastRenewMillis() > unconfirmedMillis) {
                    forgetUnconfirmed40Locked(u);
                }
            }
        }
        for (NfsClient c : dropped) {
            LOG.info("lease of client {} expired; its state is released", c);
        }
        releaseAndRecord(dropped);
        return dropped.size();
    }

    /** Expires {@code c} if its lease ran out and it runs no request; caller holds this monitor. */
    private boolean tryExpireLocked(NfsClient c, long now, List<NfsClient> dropped) {
        boolean lapsed;
        synchronized (c) {
            lapsed = !c.isExpired() && c.leaseLapsed(now, leaseMillis) && !c.hasActiveRequests(now, staleAfterMillis);
            if (lapsed) {
                c.markExpired();
            }
        }
        if (lapsed) {
            dropLocked(c, dropped);
        }
        return lapsed;
    }

    private void expireNow(NfsClient client) {
        List<NfsClient> dropped = new ArrayList<>();
        synchronized (this) {
            if (clients.get(client.clientId()) == client) {
                dropLocked(client, dropped);
            }
        }
        if (!dropped.isEmpty()) {
            LOG.info("lease of client {} expired; its state is released", client);
        }
        releaseAndRecord(dropped);
    }

    /** Removes an (expired) client and its sessions; caller holds this monitor. */
    private void dropLocked(NfsClient c, List<NfsClient> dropped) {
        if (clients.remove(c.clientId(), c)) {
            removeRecordLocked(c);
        }
        OwnerId key = c.owner().ownerId();
        confirmed.remove(key, c);
        unconfirmed.remove(key, c);
        confirmed40.remove(key, c);
        unconfirmed40.remove(key, c);
        unconfirmed40ById.remove(c.clientId(), c);
        for (NfsSession s : c.sessions()) {
            if (sessions.remove(s.id(), s)) {
                replyCache.release(s.replyCacheBytes());
            }
            s.markDestroyed();
            c.removeSession(s);
        }
        dropped.add(c);
    }

    /** Releases the open state of dropped clients and rewrites the record; outside this monitor. */
    private void releaseAndRecord(List<NfsClient> dropped) {
        release(dropped);
        rewriteRecord();
    }

    /** Releases the open state of dropped clients; outside this monitor. */
    private void release(List<NfsClient> dropped) {
        for (NfsClient c : dropped) {
            synchronized (c) {
                c.markExpired();
            }
            if (c.isConfirmed()) {
                opens.releaseClient(c);
                if (c.minorVersion() == 0) {
                    expired40.add(c.clientId());
                }
            }
        }
    }

    /** Writes the record if the set of confirmed owners (or grace's expectations) changed. */
    void rewriteRecord() {
        if (record == null) {
            return;
        }
        synchronized (this) {
            Set<OwnerId> owners = new HashSet<>(confirmed.keySet());
            owners.addAll(grace.stillExpected(clock.millis()));
            try {
                record.write(owners);
            } catch (IOException e) {
                LOG.warn("cannot update client record in {}: {}", record.directory(), e.toString());
            }
        }
    }

    /**
     * Makes room for one more record from {@code source} that costs {@code cost} bytes: while the address's
     * records reach max-clients-per-address or their state would pass client-memory-per-address, drops what
     * costs nothing to drop, cheapest first: the address's unconfirmed record renewed longest ago (it holds no
     * state; its CREATE_SESSION or SETCLIENTID_CONFIRM gets NFS4ERR_STALE_CLIENTID and the client starts
     * over), then its confirmed clients whose lease lapsed, then its confirmed client without state (no
     * session, open or lock; RFC 8881 2.4.3 lets a server release such a client id) renewed longest ago.
     * Records of other addresses are never touched. Caller holds this monitor.
     *
     * @return whether there is room now (always, for an unknown source)
     */
    private boolean makeRoomForAddressLocked(InetAddress source, long cost, long now, String op,
            List<NfsClient> dropped) {
        if (source == null) {
            return true;
        }
        boolean lapsedTried = false;
        while (true) {
            ClientMemory.Account account = memory.existing(source);
            int count = account == null ? 0 : account.records();
            boolean countFits = count < sessionLimits.maxClientsPerAddress();
            boolean bytesFit = account == null ? cost <= memory.perAddressBudget() : memory.fitsAddress(account, cost);
            if (countFits && bytesFit) {
                return true;
            }
            NfsClient oldest = null;
            NfsClient idlest = null;
            for (Map.Entry<Long, InetAddress> e : sources.entrySet()) {
                if (!source.equals(e.getValue())) {
                    continue;
                }
                NfsClient c = clients.get(e.getKey());
                if (c == null) {
                    continue;
                }
                if (!c.isConfirmed()) {
                    if (oldest == null || c.lastRenewMillis() < oldest.lastRenewMillis()) {
                        oldest = c;
                    }
                } else if (lapsedTried && statelessLocked(c, now)
                        && (idlest == null || c.lastRenewMillis() < idlest.lastRenewMillis())) {
                    idlest = c;
                }
            }
            if (oldest != null) {
                LOG.debug("clients of {} at their limit: unconfirmed client {} forgotten", source, oldest);
                forgetUnconfirmedLocked(oldest, dropped);
                continue;
            }
            if (!lapsedTried) {
                // confirmed clients of the address whose lease lapsed go next, as they do for the whole table
                lapsedTried = true;
                for (Map.Entry<Long, InetAddress> e : List.copyOf(sources.entrySet())) {
                    NfsClient c = clients.get(e.getKey());
                    if (c != null && source.equals(e.getValue())) {
                        tryExpireLocked(c, now, dropped);
                    }
                }
                continue;
            }
            if (idlest != null) {
                LOG.debug("clients of {} at their limit: client {} without state released", source, idlest);
                releaseStatelessLocked(idlest, dropped);
                continue;
            }
            if (!countFits) {
                addressFull.warn(now, op + " from " + source + " refused: it holds " + count + " confirmed "
                        + "clients with state (setting max-clients-per-address)");
            } else {
                memory.warnRefused(account, op, cost, now);
            }
            return false;
        }
    }

    /**
     * Whether {@code c} is a confirmed client that holds nothing a client would miss: no session, open,
     * lock or other stateid, and no request running. Caller holds this monitor.
     */
    private boolean statelessLocked(NfsClient c, long now) {
        if (!c.isConfirmed() || c.isExpired() || c.sessionCount() > 0 || opens.holdsState(c)) {
            return false;
        }
        synchronized (c) {
            return !c.hasActiveRequests(now, staleAfterMillis);
        }
    }

    /**
     * Releases the confirmed client {@code c} without state to make room: an NFSv4.0 client's next use of its
     * id gets NFS4ERR_EXPIRED, an NFSv4.1 client's CREATE_SESSION NFS4ERR_STALE_CLIENTID, and the client
     * establishes itself again. Caller holds this monitor.
     */
    private void releaseStatelessLocked(NfsClient c, List<NfsClient> dropped) {
        synchronized (c) {
            c.markExpired();
        }
        dropLocked(c, dropped);
    }

    /** Publishes the new record {@code c} of {@code source} and charges its {@code cost}; caller holds this monitor. */
    private void addRecordLocked(NfsClient c, InetAddress source, long cost) {
        ClientMemory.Account account = memory.account(source);
        memory.recordAdded(account);
        ClientCharge charge = new ClientCharge(memory, account);
        charge.add(cost);
        c.chargeTo(charge);
        clients.put(c.clientId(), c);
        if (source != null) {
            sources.put(c.clientId(), source);
        }
    }

    /** Releases what the record {@code c}, just removed from the table, was charged; caller holds this monitor. */
    private void removeRecordLocked(NfsClient c) {
        ClientCharge charge = c.charge();
        charge.drain();
        if (charge.account() != null) {
            memory.recordRemoved(charge.account());
        }
        sources.remove(c.clientId());
    }

    /** The bytes a client record with {@code owner} is charged. */
    private static long recordCost(ClientOwner owner) {
        return ClientMemory.RECORD_BYTES + owner.ownerId().value().length;
    }

    /** The bytes a session with fore channel {@code fore} is charged (its kept replies are bounded apart). */
    private static long sessionCost(ChannelAttributes fore) {
        return ClientMemory.SESSION_BYTES + (long) fore.maxRequests() * ClientMemory.SLOT_BYTES;
    }

    /** Bytes of client state charged to all clients together. */
    long clientMemoryBytes() {
        return memory.usedBytes();
    }

    /** Forgets an unconfirmed record of either minor version (it holds no state). Caller holds this monitor. */
    private void forgetUnconfirmedLocked(NfsClient c, List<NfsClient> dropped) {
        if (c.minorVersion() == 0) {
            forgetUnconfirmed40Locked(c);
        } else {
            synchronized (c) {
                c.markExpired();
            }
            dropLocked(c, dropped);
        }
    }

    /**
     * Makes room in the client table for one more record of {@code cost} bytes: while the table holds
     * max-clients records or all clients' state would pass client-memory, expires the clients whose lease ran
     * out, then forgets the unconfirmed record renewed longest ago (it holds no state; its CREATE_SESSION or
     * SETCLIENTID_CONFIRM will get NFS4ERR_STALE_CLIENTID and the client starts over), then releases the
     * confirmed client without state renewed longest ago. Caller holds this monitor.
     *
     * @return whether there is room now
     */
    private boolean makeRoomLocked(long now, long cost, InetAddress source, String op, List<NfsClient> dropped) {
        if (clients.size() < sessionLimits.maxClients() && memory.fitsTotal(cost)) {
            return true;
        }
        for (NfsClient c : List.copyOf(clients.values())) {
            tryExpireLocked(c, now, dropped);
        }
        while (clients.size() >= sessionLimits.maxClients() || !memory.fitsTotal(cost)) {
            NfsClient oldest = null;
            NfsClient idlest = null;
            for (NfsClient c : clients.values()) {
                if (!c.isConfirmed()) {
                    if (oldest == null || c.lastRenewMillis() < oldest.lastRenewMillis()) {
                        oldest = c;
                    }
                } else if (oldest == null && statelessLocked(c, now)
                        && (idlest == null || c.lastRenewMillis() < idlest.lastRenewMillis())) {
                    idlest = c;
                }
            }
            if (oldest != null) {
                LOG.debug("client table full: unconfirmed client {} forgotten", oldest);
                forgetUnconfirmedLocked(oldest, dropped);
            } else if (idlest != null) {
                LOG.debug("client table full: client {} without state released", idlest);
                releaseStatelessLocked(idlest, dropped);
            } else if (clients.size() >= sessionLimits.maxClients()) {
                clientsFull.warn(now, "client table full: " + clients.size() + " confirmed clients with state "
                        + "(setting max-clients); new clients are refused (EXCHANGE_ID: NFS4ERR_DELAY, SETCLIENTID: "
                        + "NFS4ERR_RESOURCE)");
                return false;
            } else {
                memory.warnRefused(memory.existing(source), op, cost, now);
                return false;
            }
        }
        return true;
    }

    /** Bytes of reply cache all sessions reserved. */
    long replyCacheReservedBytes() {
        return replyCache.reservedBytes();
    }

    private long newClientId() {
        return bootPrefix | (nextClient.incrementAndGet() & 0xffffffffL);
    }

    private SessionId newSessionIdLocked() {
        SessionId id;
        do {
            id = NfsSession.randomId();
        } while (sessions.containsKey(id));
        return id;
    }
}
