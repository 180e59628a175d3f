package org.tcnfs.nfs4.state;

import org.tcnfs.nfs4.xdr.CREATE_SESSION4args;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
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
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NoEntException;
import org.tcnfs.nfs4.status.NoSpcException;
import org.tcnfs.nfs4.status.NotSameException;
import org.tcnfs.nfs4.status.PermException;
import org.tcnfs.nfs4.status.ReqTooBigException;
import org.tcnfs.nfs4.status.SeqMisorderedException;
import org.tcnfs.nfs4.status.ServerFaultException;
import org.tcnfs.nfs4.status.StaleClientIdException;
import org.tcnfs.nfs4.status.TooManyOpsException;
import org.tcnfs.nfs4.xdr.COMPOUND4res;

/**
 * Client records and sessions: the state machine of EXCHANGE_ID, CREATE_SESSION, SEQUENCE,
 * DESTROY_SESSION, DESTROY_CLIENTID and lease expiry.
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

    private final NfsLimits limits;
    private final Clock clock;
    private final OpenStateTable opens;
    private final GracePeriod grace;
    private final ClientRecord record;
    private final long leaseMillis;
    private final long staleAfterMillis;
    private final long bootPrefix;
    private final AtomicInteger nextClient = new AtomicInteger();

    private final Map<Long, NfsClient> clients = new ConcurrentHashMap<>();
    private final Map<SessionId, NfsSession> sessions = new ConcurrentHashMap<>();
    private final Map<OwnerId, NfsClient> confirmed = new HashMap<>();
    private final Map<OwnerId, NfsClient> unconfirmed = new HashMap<>();

    ClientRegistry(NfsLimits limits, Clock clock, OpenStateTable opens, GracePeriod grace, ClientRecord record) {
        this.limits = limits;
        this.clock = clock;
        this.opens = opens;
        this.grace = grace;
        this.record = record;
        this.leaseMillis = limits.lease().toMillis();
        // A request that has not completed after this long is taken as lost (see SlotTable).
        this.staleAfterMillis = Math.max(2 * leaseMillis, 60_000L);
        // Client ids carry the start time in their upper half, so ids of an earlier run are never reused.
        this.bootPrefix = (clock.millis() / 1000) << 32;
    }

    /** EXCHANGE_ID (RFC 8881 18.35.5): the client record to answer with, new or existing. */
    ExchangeIdResult exchangeId(ClientOwner owner, int principalUid, ExchangeIdMode mode) throws NfsException {
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
                    if (!tryExpireLocked(conf, now, dropped)) {
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
            NfsClient created = new NfsClient(newClientId(), owner, principalUid, 1, now);         // case 1
            clients.put(created.clientId(), created);
            unconfirmed.put(key, created);
            result = ExchangeIdResult.of(created);
            LOG.debug("new client {} from uid {}", created, principalUid);
        }
        releaseAndRecord(dropped);
        return result;
    }

    /** CREATE_SESSION (RFC 8881 18.36.4): the new session, or the cached one for a replay. */
    NfsSession createSession(CreateSessionRequest request, int principalUid) throws NfsException {
        long now = clock.millis();
        List<NfsClient> dropped = new ArrayList<>();
        NfsSession session;
        synchronized (this) {
            NfsClient client = clients.get(request.clientId());
            if (client == null) {
                throw new StaleClientIdException("unknown client id " + Long.toHexString(request.clientId()));
            }
            if (client.principalUid() != principalUid) {
                throw new ClidInUseException("CREATE_SESSION by another principal");
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
            if (!client.isConfirmed()) {
                confirmLocked(client, now, dropped);
            }
            session = new NfsSession(newSessionIdLocked(), client, request.sequence(),
                    request.flags() & CREATE_SESSION4args.CREATE_SESSION4_FLAG_CONN_BACK_CHAN, fore,
                    request.backChannel(), request.callbackProgram());
            sessions.put(session.id(), session);
            client.addSession(session);
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
            s.markDestroyed();
            s.client().removeSession(s);
            LOG.debug("session {} destroyed", s);
        }
    }

    /** DESTROY_CLIENTID (RFC 8881 18.50). */
    void destroyClient(long clientId) throws NfsException {
        List<NfsClient> dropped = new ArrayList<>();
        synchronized (this) {
            NfsClient client = clients.get(clientId);
            if (client == null) {
                throw new StaleClientIdException("unknown client id " + Long.toHexString(clientId));
            }
            if (client.sessionCount() > 0) {
                throw new ClientIdBusyException("client " + client + " still has sessions");
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

    /** Expires every client whose lease ran out and that runs no request; returns how many. */
    int reapExpired() {
        long now = clock.millis();
        List<NfsClient> dropped = new ArrayList<>();
        synchronized (this) {
            for (NfsClient c : List.copyOf(clients.values())) {
                tryExpireLocked(c, now, dropped);
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
        clients.remove(c.clientId(), c);
        OwnerId key = c.owner().ownerId();
        confirmed.remove(key, c);
        unconfirmed.remove(key, c);
        for (NfsSession s : c.sessions()) {
            sessions.remove(s.id(), s);
            s.markDestroyed();
            c.removeSession(s);
        }
        dropped.add(c);
    }

    /** Releases the open state of dropped clients and rewrites the record; outside this monitor. */
    private void releaseAndRecord(List<NfsClient> dropped) {
        for (NfsClient c : dropped) {
            synchronized (c) {
                c.markExpired();
            }
            if (c.isConfirmed()) {
                opens.releaseClient(c);
            }
        }
        rewriteRecord();
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
