package org.tcnfs.nfs4.state;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.status.BadStateIdException;
import org.tcnfs.nfs4.status.ExpiredException;
import org.tcnfs.nfs4.status.LockedException;
import org.tcnfs.nfs4.status.LocksHeldException;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.StaleStateIdException;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.status.NotSuppException;
import org.tcnfs.nfs4.status.OpenModeException;
import org.tcnfs.nfs4.status.ResourceException;
import org.tcnfs.nfs4.status.ShareDeniedException;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.nfs_opnum4;

/**
 * Opens (share reservations), byte-range locks and their stateids, for NFSv4.1 (RFC 8881 sections 8.2, 9
 * and the OPEN, CLOSE, OPEN_DOWNGRADE, LOCK, LOCKT, LOCKU, TEST_STATEID and FREE_STATEID operations).
 *
 * <p>Every state has a stateid: 12 {@code other} bytes from a {@link StateIdGenerator}, unique across
 * restarts, and a seqid that starts at 1 and grows with each change. A request's seqid 0 means "the current
 * one"; an older seqid is NFS4ERR_OLD_STATEID, a newer one, an unknown {@code other}, a state of another
 * client or of another file is NFS4ERR_BAD_STATEID. An open owner has one open per file, which further OPENs
 * upgrade; a lock owner has one lock state per file, created by its first granted LOCK through an open.
 *
 * <p>Threading: a map from {@code other} to state and a map from file to its {@code FileState} (opens, lock
 * states, byte-range locks) are concurrent; each file's state is guarded by its own monitor, and no thread
 * holds two of them. Each client has a read-write lock: its operations share the read lock, releasing the
 * client takes the write lock, so no state of a released client survives. Lock order: client lock, then
 * file monitor. The {@code OpenAction} of an OPEN runs under the file monitor.
 *
 * <p>Transactions: a {@link StateJournal} bound to the thread of a transactional compound ({@link #bind})
 * records every state the compound changes as it was before, and {@link #restore} puts it back when the
 * compound rolls back. {@link #onLastClose} listeners hear of every file whose last open ended, so that a
 * file kept usable after losing its last name while open can go.
 *
 * <h2>NFSv4.0 (RFC 7530)</h2>
 * States of a client of minor version 0 differ in these ways: their stateids carry the client (see
 * {@link StateIdGenerator#next(long)}), so a stateid of a client whose state was released is
 * NFS4ERR_EXPIRED, and one of an earlier server instance NFS4ERR_STALE_STATEID; seqid 0 is an ordinary
 * (old) seqid; each open owner and lock owner has an {@link OwnerSequence} (see {@link #openOwner},
 * {@link #lockOwner}, {@link #ownerOf}), kept while the owner is in use and forgotten by
 * {@link #pruneIdleOwners} once idle and without state; an open owner's stateids are NFS4ERR_BAD_STATEID
 * until OPEN_CONFIRM ({@link #confirmOpen}), and a further OPEN of an unconfirmed owner replaces its opens;
 * the open an owner closed last stays findable by {@link #ownerOf}, so a retransmitted CLOSE is answered
 * from the owner's sequence; the client is taken from the state, not from a session, and every use of a
 * stateid renews the client's lease (RFC 7530 9.5). Lock order: owner sequence, then client lock, then
 * file monitor.
 */
public class OpenStateTable {
    private static final Logger LOG = LoggerFactory.getLogger(OpenStateTable.class);

    /** What an I/O operation means to do with a file, for stateid checks. */
    public enum IoMode {
        READ,
        WRITE
    }

    /** Work done under the file's monitor once an OPEN is known to be grantable (a truncation, say). */
    @FunctionalInterface
    public interface OpenAction {
        void run() throws IOException;
    }

    /** Nothing to do before granting an open. */
    public static final OpenAction NOTHING = () -> {
    };

    @FunctionalInterface
    private interface FileWork<T> {
        T run(FileState file) throws IOException;
    }

    /** Ends a {@link #bind}: the thread's changes are no longer recorded in the journal. */
    public interface JournalBinding extends AutoCloseable {
        @Override
        void close();
    }

    /** How many released NFSv4.0 clients are remembered for NFS4ERR_EXPIRED. */
    private static final int RELEASED_CLIENTS_REMEMBERED = 4096;

    private final StateIdGenerator ids;
    private final ConcurrentMap<StateKey, NfsState> states = new ConcurrentHashMap<>();
    private final ConcurrentMap<Inode, FileState> files = new ConcurrentHashMap<>();
    private final ConcurrentMap<Long, ClientState> clients = new ConcurrentHashMap<>();
    private final RecentlyClosed recentlyClosed;
    private final Clock clock;
    /** Told of each file whose last open ended (see {@link #onLastClose}). */
    private final List<java.util.function.Consumer<Inode>> lastCloseListeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The journal of the compound the current thread runs, if it is a transaction. */
    private final ThreadLocal<StateJournal> journals = new ThreadLocal<>();
    /** NFSv4.0: the open each open owner closed last, so that a retransmitted CLOSE finds its owner. */
    private final ConcurrentMap<StateKey, OpenState> closed40 = new ConcurrentHashMap<>();
    /** NFSv4.0 open and lock owners kept per client ({@link SessionLimits#maxOwnersPerClient()}). */
    private volatile int maxOwnersPerClient = SessionLimits.DEFAULTS.maxOwnersPerClient();
    /** NFSv4.0: the client bits of clients whose state was released (newest last, bounded). */
    private final Set<Integer> released40 = Collections.synchronizedSet(Collections.newSetFromMap(
            new LinkedHashMap<>(64, 0.75f, false) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<Integer, Boolean> eldest) {
                    return size() > RELEASED_CLIENTS_REMEMBERED;
                }
            }));

    /** A table whose stateids carry the system clock's boot epoch. */
    public OpenStateTable() {
        this(Clock.systemUTC());
    }

    /** A table whose stateids carry the boot epoch of {@code clock}. */
    public OpenStateTable(Clock clock) {
        this(StateIdGenerator.forBoot(clock), clock);
    }

    public OpenStateTable(StateIdGenerator ids) {
        this(ids, Clock.systemUTC());
    }

    public OpenStateTable(StateIdGenerator ids, Clock clock) {
        this.ids = Objects.requireNonNull(ids);
        this.clock = Objects.requireNonNull(clock);
        this.recentlyClosed = new RecentlyClosed(clock);
    }

    // ---------------------------------------------------------------- helpers for operations

    /**
     * The client of the compound's session.
     *
     * @throws NotSuppException without a session (NFSv4.0 operations find their client through the open
     *     owner, lock owner or stateid instead: {@link #ownerOf}, {@link StateHandler#renewNfs40})
     */
    public static NfsClient clientOf(CompoundContext context) throws NotSuppException {
        if (context.session() == null) {
            throw new NotSuppException("open and lock state needs an NFSv4.1 session");
        }
        return context.session().client();
    }

    /**
     * {@code stateId}, or the compound's current stateid if {@code stateId} is the NFSv4.1 current-stateid
     * marker (RFC 8881 16.2.3.1.2).
     *
     * @throws BadStateIdException for the marker when there is no current stateid
     */
    public static StateId resolve(CompoundContext context, StateId stateId) throws BadStateIdException {
        if (context.minorVersion() >= 1 && stateId.equals(StateId.CURRENT)) {
            StateId current = context.currentStateId();
            if (current == null) {
                throw new BadStateIdException("no current stateid");
            }
            return current;
        }
        return stateId;
    }

    // ---------------------------------------------------------------- OPEN, CLOSE, OPEN_DOWNGRADE

    /**
     * Opens {@code file} for {@code owner} of {@code client} with {@code share}, or upgrades the owner's open
     * of it to the union of both reservations (a new seqid).
     *
     * @param beforeGrant runs under the file's monitor after the share checks passed and before the open is
     *     recorded; if it throws, nothing is recorded
     * @return the open stateid
     * @throws ShareDeniedException if another open owner's reservation conflicts, or the owner's own
     *     existing one (its deny bits bind its further OPENs, and its access bits their deny bits)
     */
    public StateId open(NfsClient client, byte[] owner, Inode file, ShareMode share, OpenAction beforeGrant)
            throws IOException {
        Objects.requireNonNull(share, "share");
        Objects.requireNonNull(beforeGrant, "beforeGrant");
        ClientState cs = enter(client);
        try {
            StateOwner openOwner = new StateOwner(cs.clientId, owner);
            OwnerSequence sequence = cs.minorVersion == 0 ? cs.openSequence(openOwner, clock) : null;
            if (sequence != null && !sequence.isConfirmed()) {
                // an OPEN of an open owner never confirmed starts it over (RFC 7530 9.1.11)
                for (OpenState unconfirmed : cs.opensOf(openOwner)) {
                    synchronized (unconfirmed.file) {
                        if (!unconfirmed.isClosed()) {
                            dropOpen(unconfirmed);
                            retireIfEmpty(unconfirmed.file);
                        }
                    }
                }
            }
            return onFile(file, fs -> {
                OpenState existing = fs.opens.get(openOwner);
                if (existing != null && existing.share().conflictsWith(share)) {
                    // the owner's own reservation binds its further OPENs too (RFC 7530 9.9, 16.16.5)
                    throw new ShareDeniedException("open " + share + " conflicts with the owner's own "
                            + existing.share());
                }
                ShareMode wanted = existing == null ? share : existing.share().union(share);
                for (OpenState other : fs.opens.values()) {
                    if (other != existing && other.share().conflictsWith(wanted)) {
                        throw new ShareDeniedException("open " + wanted + " conflicts with " + other.share()
                                + " of " + other.owner);
                    }
                }
                if (existing == null) {
                    cs.admit(ClientState.stateCost(openOwner), "OPEN");
                }
                beforeGrant.run();
                if (existing != null) {
                    save(existing);
                    existing.upgrade(share);
                    existing.bump();
                    return existing.stateId();
                }
                OpenState open = new OpenState(newOther(cs), cs, fs, openOwner, share, sequence);
                fs.opens.put(openOwner, open);
                register(open);
                created(open);
                return open.stateId();
            });
        } finally {
            cs.lock.readLock().unlock();
        }
    }

    /**
     * Whether some client holds an open of {@code file} now. Such a file's handle stays usable for its
     * open state (CLOSE, OPEN_DOWNGRADE, LOCKU, ...) after the file lost its last name, the "open but
     * unlinked" rule applied to handles: see {@code OperationPUTFH}.
     */
    public boolean isOpen(Inode file) {
        FileState state = files.get(file);
        if (state == null) {
            return false;
        }
        synchronized (state) {
            return !state.retired && !state.opens.isEmpty();
        }
    }

    /** Whether any file is open now (a cheap test before asking {@link #isOpen} about a file). */
    public boolean hasOpenFiles() {
        return !files.isEmpty();
    }

    /**
     * Calls {@code listener} with each file whose last open ended (CLOSE, OPEN of an unconfirmed NFSv4.0
     * owner, the client's lease expired or the client was destroyed, a rolled-back OPEN), under that
     * file's monitor: it must be quick and must not call back into this table. It may also be called for
     * files that were never open.
     */
    public void onLastClose(java.util.function.Consumer<Inode> listener) {
        lastCloseListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * CLOSE: ends the open named by {@code openStateId} on {@code file}, releasing its share reservation and
     * the lock states (and byte-range locks) opened through it, as RFC 8881 18.2.4 allows.
     *
     * @return the open's stateid with its seqid advanced (what an NFSv4.0 CLOSE returns)
     */
    public StateId close(NfsClient client, StateId openStateId, Inode file) throws IOException {
        ClientState cs = enter(client);
        try {
            OpenState open = lookupOpen(cs, openStateId);
            synchronized (open.file) {
                checkCurrent(open, openStateId, file);
                save(open);
                open.bump();
                dropOpen(open);
                recentlyClosed.remember(open.key, cs.clientId, file);
                retireIfEmpty(open.file);
                if (open.sequence != null) {
                    StateKey previous = open.sequence.swapLastClosed(open.key);
                    if (previous != null) {
                        closed40.remove(previous);
                    }
                    closed40.put(open.key, open);
                }
                return open.stateId();
            }
        } finally {
            cs.lock.readLock().unlock();
        }
    }

    /**
     * OPEN_DOWNGRADE: the open keeps only {@code target}.
     *
     * @return the open's new stateid
     * @throws InvalException unless {@code target} is the union of share modes some OPENs of the owner asked
     *     for (RFC 8881 18.18.3)
     */
    public StateId downgrade(NfsClient client, StateId openStateId, Inode file, ShareMode target)
            throws IOException {
        ClientState cs = enter(client);
        try {
            OpenState open = lookupOpen(cs, openStateId);
            synchronized (open.file) {
                checkCurrent(open, openStateId, file);
                if (!open.canDowngradeTo(target)) {
                    throw new InvalException("cannot downgrade " + open.share() + " to " + target);
                }
                save(open);
                open.downgrade(target);
                open.bump();
                return open.stateId();
            }
        } finally {
            cs.lock.readLock().unlock();
        }
    }

    // ---------------------------------------------------------------- LOCK, LOCKT, LOCKU

    /**
     * LOCK by a lock owner new to the file, through the open {@code openStateId} (open_to_lock_owner4).
     * The lock owner's lock state is created when the lock is granted (its stateid has seqid 1); if the
     * owner already has one for the file, that one is used and its seqid grows.
     *
     * @throws OpenModeException if the open's access does not include the lock type (READ or WRITE)
     */
    public LockResult lockNewOwner(NfsClient client, StateId openStateId, byte[] lockOwner, Inode file,
            LockType type, ByteRange range) throws IOException {
        return lockNewOwner(client, openStateId, lockOwner, file, type, range, LockWait.NONE);
    }

    /**
     * LOCK by a lock owner new to the file, as {@link #lockNewOwner(NfsClient, StateId, byte[], Inode,
     * LockType, ByteRange)}, that a blocked locker queued before it also denies; a denied request is queued
     * as {@code wait} says (see {@link LockWait}).
     */
    public LockResult lockNewOwner(NfsClient client, StateId openStateId, byte[] lockOwner, Inode file,
            LockType type, ByteRange range, LockWait wait) throws IOException {
        ClientState cs = enter(client);
        try {
            OpenState open = lookupOpen(cs, openStateId);
            StateOwner owner = new StateOwner(cs.clientId, lockOwner);
            synchronized (open.file) {
                checkCurrent(open, openStateId, file);
                checkLockMode(open, type);
                FileState fs = open.file;
                LockState prior = fs.lockStates.get(owner);
                if (prior != null) {
                    save(prior);
                }
                cs.admit(ClientMemory.RANGE_BYTES + (prior != null ? 0 : ClientState.stateCost(owner)
                        + (cs.minorVersion == 0 ? ClientState.ownerCost(owner) : 0)), "LOCK");
                Optional<ByteRangeLock> conflict = takeInTurn(fs, owner, type, range, wait);
                if (conflict.isPresent()) {
                    return new LockResult.Denied(conflict.get());
                }
                LockState lock = fs.lockStates.get(owner);
                if (lock == null) {
                    lock = new LockState(newOther(cs), cs, fs, owner, open,
                            cs.minorVersion == 0 ? cs.lockSequence(owner, clock) : null);
                    fs.lockStates.put(owner, lock);
                    open.lockStates.add(lock);
                    register(lock);
                    created(lock);
                } else {
                    lock.bump();
                }
                chargeRanges(lock);
                return new LockResult.Granted(lock.stateId());
            }
        } finally {
            cs.lock.readLock().unlock();
        }
    }

    /**
     * LOCK by a lock owner that has the lock stateid {@code lockStateId} for the file (exist_lock_owner4).
     *
     * @throws OpenModeException if the open's access does not include the lock type
     */
    public LockResult lockExistingOwner(NfsClient client, StateId lockStateId, Inode file, LockType type,
            ByteRange range) throws IOException {
        return lockExistingOwner(client, lockStateId, file, type, range, LockWait.NONE);
    }

    /**
     * LOCK by a lock owner with its lock stateid, as {@link #lockExistingOwner(NfsClient, StateId, Inode,
     * LockType, ByteRange)}, that a blocked locker queued before it also denies; a denied request is queued
     * as {@code wait} says (see {@link LockWait}).
     */
    public LockResult lockExistingOwner(NfsClient client, StateId lockStateId, Inode file, LockType type,
            ByteRange range, LockWait wait) throws IOException {
        ClientState cs = enter(client);
        try {
            LockState lock = lookupLock(cs, lockStateId);
            synchronized (lock.file) {
                checkCurrent(lock, lockStateId, file);
                checkLockMode(lock.open, type);
                save(lock);
                cs.admit(ClientMemory.RANGE_BYTES, "LOCK");
                Optional<ByteRangeLock> conflict = takeInTurn(lock.file, lock.owner, type, range, wait);
                if (conflict.isPresent()) {
                    return new LockResult.Denied(conflict.get());
                }
                chargeRanges(lock);
                lock.bump();
                return new LockResult.Granted(lock.stateId());
            }
        } finally {
            cs.lock.readLock().unlock();
        }
    }

    /**
     * Takes {@code type} over {@code range} for {@code owner} unless a lock held by another owner, or a
     * conflicting lock wanted by a blocked locker queued before {@code owner}, is in the way; then nothing
     * is taken, the request is queued as {@code wait} says, and the obstacle returned. A granted request
     * leaves the queue. Caller holds the file's monitor.
     */
    private Optional<ByteRangeLock> takeInTurn(FileState fs, StateOwner owner, LockType type, ByteRange range,
            LockWait wait) {
        long now = clock.millis();
        Optional<ByteRangeLock> conflict = fs.locks.conflict(owner, type, range);
        if (conflict.isEmpty()) {
            conflict = fs.waiters.ahead(owner, type, range, now);
        }
        if (conflict.isPresent()) {
            if (wait.queues()) {
                fs.waiters.enqueue(owner, type, range, now + wait.queueFor().toMillis());
            }
            return conflict;
        }
        fs.locks.lock(owner, type, range);
        fs.waiters.remove(owner);
        return Optional.empty();
    }

    /**
     * LOCKT: the lock of another owner that would keep {@code lockOwner} of {@code client} from taking
     * {@code type} over {@code range} of {@code file}; creates no state.
     */
    public Optional<ByteRangeLock> testLock(NfsClient client, byte[] lockOwner, Inode file, LockType type,
            ByteRange range) {
        StateOwner owner = new StateOwner(client.clientId(), lockOwner);
        FileState fs = files.get(file);
        if (fs == null) {
            return Optional.empty();
        }
        synchronized (fs) {
            return fs.retired ? Optional.empty() : fs.locks.conflict(owner, type, range);
        }
    }

    /**
     * LOCKU: releases {@code range} of the locks held under {@code lockStateId} (which may split a lock).
     *
     * @return the lock state's new stateid
     */
    public StateId unlock(NfsClient client, StateId lockStateId, Inode file, ByteRange range) throws IOException {
        ClientState cs = enter(client);
        try {
            LockState lock = lookupLock(cs, lockStateId);
            synchronized (lock.file) {
                checkCurrent(lock, lockStateId, file);
                save(lock);
                lock.file.locks.unlock(lock.owner, range);
                chargeRanges(lock);
                lock.bump();
                return lock.stateId();
            }
        } finally {
            cs.lock.readLock().unlock();
        }
    }

    // ---------------------------------------------------------------- TEST_STATEID, FREE_STATEID

    /** TEST_STATEID for one stateid: NFS4_OK, or why {@code stateId} cannot be used by {@code client}. */
    public NfsStatus test(NfsClient client, StateId stateId) {
        if (stateId.isSpecial()) {
            return NfsStatus.BAD_STATEID;
        }
        ClientState cs = clients.get(client.clientId());
        NfsState state = states.get(StateKey.of(stateId));
        if (cs == null || state == null || state.client != cs) {
            return NfsStatus.BAD_STATEID;
        }
        synchronized (state.file) {
            if (state.isClosed()) {
                return NfsStatus.BAD_STATEID;
            }
            try {
                state.checkSeqid(stateId.seqid());
                return NfsStatus.OK;
            } catch (NfsException e) {
                return e.status();
            }
        }
    }

    /**
     * FREE_STATEID (RFC 8881 18.38): forgets a lock state that holds no locks.
     *
     * @throws LocksHeldException for a lock state that still holds locks, and for an open (which is a share
     *     reservation; CLOSE ends it)
     */
    public void free(NfsClient client, StateId stateId) throws IOException {
        ClientState cs = enter(client);
        try {
            NfsState state = lookup(cs, stateId);
            synchronized (state.file) {
                if (state.isClosed()) {
                    throw new BadStateIdException("stateid " + stateId + " is gone");
                }
                state.checkSeqid(stateId.seqid());
                if (state instanceof OpenState) {
                    throw new LocksHeldException("an open stateid is freed by CLOSE");
                }
                LockState lock = (LockState) state;
                if (lock.file.locks.holds(lock.owner)) {
                    throw new LocksHeldException("lock stateid " + stateId + " still holds locks");
                }
                dropLock(lock);
                retireIfEmpty(lock.file);
            }
        } finally {
            cs.lock.readLock().unlock();
        }
    }

    // ---------------------------------------------------------------- I/O and client release

    /**
     * Checks that {@code stateId} allows {@code mode} I/O on {@code inode} (RFC 8881 8.2 and 9.1.2).
     *
     * <ul>
     *   <li>The anonymous stateid is allowed unless an open of the file denies {@code mode}
     *       (NFS4ERR_LOCKED); the READ bypass stateid is always allowed for READ and treated as anonymous
     *       for WRITE.</li>
     *   <li>The current-stateid marker stands for the compound's current stateid; other special forms are
     *       NFS4ERR_BAD_STATEID.</li>
     *   <li>An open or lock stateid must belong to the session's client and to {@code inode}
     *       (NFS4ERR_BAD_STATEID) and have a current seqid (NFS4ERR_OLD_STATEID); WRITE needs an open with
     *       WRITE access (NFS4ERR_OPENMODE). READ is allowed through any open, as clients read through
     *       write-only opens to fill partial pages.</li>
     *   <li>Byte-range locks are advisory: they never refuse I/O.</li>
     * </ul>
     */
    public void checkIo(CompoundContext context, StateId stateId, Inode inode, IoMode mode) throws IOException {
        if (context.minorVersion() == 0) {
            checkIoNfs40(stateId, inode, mode);
            return;
        }
        StateId id = resolve(context, stateId);
        if (id.equals(StateId.READ_BYPASS) && mode == IoMode.READ) {
            return;
        }
        if (id.equals(StateId.ANONYMOUS) || id.equals(StateId.READ_BYPASS)) {
            checkShareDeny(inode, mode);
            return;
        }
        if (id.isSpecial() || context.session() == null) {
            throw new BadStateIdException("stateid " + id + " cannot be used for I/O");
        }
        ClientState cs = clients.get(context.session().client().clientId());
        if (cs == null) {
            throw new BadStateIdException("client holds no state");
        }
        try {
            NfsState state = lookup(cs, id);
            synchronized (state.file) {
                checkCurrent(state, id, inode);
                OpenState open = state instanceof LockState lock ? lock.open : (OpenState) state;
                if (mode == IoMode.WRITE && !open.share().allowsWrite()) {
                    throw new OpenModeException("the file is not open for writing");
                }
            }
        } catch (BadStateIdException e) {
            if (mode == IoMode.READ && recentlyClosed.justClosed(StateKey.of(id), cs.clientId, inode)) {
                checkShareDeny(inode, mode);
                return;
            }
            throw e;
        }
    }

    /** Releases every open, lock and stateid of {@code client} (its lease expired or it was destroyed). */
    public void releaseClient(NfsClient client) {
        ClientState cs = clients.remove(client.clientId());
        if (cs == null) {
            return;
        }
        cs.lock.writeLock().lock();
        try {
            cs.released = true;
            List<OpenState> opens = cs.opens();
            List<LockState> locks = cs.lockStates();
            for (LockState lock : locks) {
                synchronized (lock.file) {
                    if (!lock.isClosed()) {
                        dropLock(lock);
                        retireIfEmpty(lock.file);
                    }
                }
            }
            for (OpenState open : opens) {
                synchronized (open.file) {
                    if (!open.isClosed()) {
                        dropOpen(open);
                        retireIfEmpty(open.file);
                    }
                }
            }
            if (cs.minorVersion == 0) {
                released40.add((int) cs.clientId);
                closed40.values().removeIf(open -> open.client == cs);
            }
            LOG.debug("released {} opens and {} lock states of client {}", opens.size(), locks.size(),
                    Long.toHexString(cs.clientId));
        } finally {
            cs.lock.writeLock().unlock();
        }
    }

    // ---------------------------------------------------------------- NFSv4.0 owners, OPEN_CONFIRM, RELEASE_LOCKOWNER

    /** Bounds the NFSv4.0 owners each client keeps (set before the first client comes). */
    void maxOwnersPerClient(int max) {
        this.maxOwnersPerClient = max;
    }

    /**
     * NFSv4.0: the sequence of open owner {@code owner} of {@code client} (RFC 7530 9.1.7), created
     * (unconfirmed) if the owner is new.
     *
     * @throws ExpiredException if the client's state was released
     * @throws ResourceException if the client keeps as many owners as allowed, all with state
     */
    public OwnerSequence openOwner(NfsClient client, byte[] owner) throws ExpiredException, ResourceException {
        ClientState cs = enter(client);
        try {
            return cs.openSequence(new StateOwner(cs.clientId, owner), clock);
        } finally {
            cs.lock.readLock().unlock();
        }
    }

    /**
     * NFSv4.0: what OPEN with {@code seqid} of open owner {@code owner} of client {@code clientId} would be
     * answered now if it is a retransmission of that owner's last request ({@link OwnerSequence#retransmissionOf});
     * empty for an owner or client this table does not hold. Creates nothing and renews no lease.
     */
    public Optional<OwnerSequence.Retransmission> openRetransmission(long clientId, byte[] owner, int seqid) {
        ClientState cs = clients.get(clientId);
        if (cs == null || owner == null) {
            return Optional.empty();
        }
        return cs.existingOpenSequence(new StateOwner(clientId, owner))
                .flatMap(sequence -> sequence.retransmissionOf(seqid, nfs_opnum4.OP_OPEN));
    }

    /**
     * NFSv4.0: the sequence of lock owner {@code owner} of {@code client}, created if new.
     *
     * @throws ExpiredException if the client's state was released
     * @throws ResourceException if the client keeps as many owners as allowed, all with state
     */
    public OwnerSequence lockOwner(NfsClient client, byte[] owner) throws ExpiredException, ResourceException {
        ClientState cs = enter(client);
        try {
            return cs.lockSequence(new StateOwner(cs.clientId, owner), clock);
        } finally {
            cs.lock.readLock().unlock();
        }
    }

    /**
     * NFSv4.0: the owner whose requests carry seqids for {@code stateId}: the open owner of an open
     * stateid (also of the open it closed last), the lock owner of a lock stateid. Renews the lease of the
     * owner's client (RFC 7530 9.5). The stateid's own seqid is checked later, by the operation.
     *
     * @throws NfsException STALE_STATEID, EXPIRED or BAD_STATEID (see {@link #unknownStateId})
     */
    public OwnerSequence ownerOf(StateId stateId) throws NfsException {
        if (stateId.isSpecial()) {
            throw new BadStateIdException("special stateid " + stateId + " names no owner");
        }
        StateKey key = StateKey.of(stateId);
        NfsState state = states.get(key);
        if (state == null) {
            state = closed40.get(key);
        }
        if (state == null) {
            throw unknownStateId(stateId);
        }
        if (state.sequence == null) {
            throw new BadStateIdException("stateid " + stateId + " is not one of an NFSv4.0 client");
        }
        state.client.client.renew(clock.millis());
        return state.sequence;
    }

    /**
     * OPEN_CONFIRM (RFC 7530 16.18): confirms the open owner of the open {@code openStateId} on
     * {@code file}.
     *
     * @return the open's new stateid
     * @throws BadStateIdException if the stateid is no open of {@code client} on {@code file}, or its owner
     *     is confirmed already
     */
    public StateId confirmOpen(NfsClient client, StateId openStateId, Inode file) throws IOException {
        ClientState cs = enter(client);
        try {
            OpenState open = lookupOpen(cs, openStateId);
            synchronized (open.file) {
                if (open.isClosed()) {
                    throw new BadStateIdException("stateid " + openStateId + " is gone");
                }
                if (!open.awaitsConfirmation()) {
                    throw new BadStateIdException("the open owner of " + openStateId + " is confirmed already");
                }
                open.checkSeqid(openStateId.seqid());
                if (!open.file.inode.equals(file)) {
                    throw new BadStateIdException("stateid " + openStateId + " is for another file");
                }
                save(open);
                open.bump();
                open.sequence.confirm();
                return open.stateId();
            }
        } finally {
            cs.lock.readLock().unlock();
        }
    }

    /**
     * RELEASE_LOCKOWNER (RFC 7530 16.37): forgets lock owner {@code owner} of {@code client}, its lock
     * states and its sequence; nothing happens for an unknown owner.
     *
     * @throws LocksHeldException if the owner still holds a byte-range lock
     */
    public void releaseLockOwner(NfsClient client, byte[] owner) throws IOException {
        ClientState cs = enter(client);
        try {
            StateOwner id = new StateOwner(cs.clientId, owner);
            List<LockState> locks = cs.lockStatesOf(id);
            for (LockState lock : locks) {
                synchronized (lock.file) {
                    if (!lock.isClosed() && lock.file.locks.holds(lock.owner)) {
                        throw new LocksHeldException("lock owner " + id + " still holds locks");
                    }
                }
            }
            for (LockState lock : locks) {
                synchronized (lock.file) {
                    if (!lock.isClosed()) {
                        dropLock(lock);
                        retireIfEmpty(lock.file);
                    }
                }
            }
            cs.forgetLockOwner(id);
        } finally {
            cs.lock.readLock().unlock();
        }
    }

    /** The byte-range locks held on {@code file} now, by start offset (for tests and diagnostics). */
    List<ByteRangeLock> locksHeld(Inode file) {
        FileState fs = files.get(file);
        if (fs == null) {
            return List.of();
        }
        synchronized (fs) {
            return fs.locks.locks();
        }
    }

    /** Whether {@code client} holds any open or lock state (SETCLIENTID's NFS4ERR_CLID_INUSE test). */
    public boolean holdsState(NfsClient client) {
        ClientState cs = clients.get(client.clientId());
        return cs != null && !cs.released && cs.holdsState();
    }

    /**
     * Why a stateid that names no state is refused in NFSv4.0: NFS4ERR_STALE_STATEID when an earlier server
     * instance issued it (another boot epoch), NFS4ERR_EXPIRED when it belongs to a client whose state was
     * released, else NFS4ERR_BAD_STATEID.
     */
    public NfsException unknownStateId(StateId stateId) {
        if (stateId.isSpecial()) {
            return new BadStateIdException("special stateid " + stateId + " names no state");
        }
        byte[] other = stateId.other();
        if (StateIdGenerator.epochOf(other) != ids.epoch()) {
            return new StaleStateIdException("stateid " + stateId + " is of an earlier server instance");
        }
        if (released40.contains(StateIdGenerator.clientBitsOf(other))) {
            return new ExpiredException("stateid " + stateId + " is of a client whose lease expired");
        }
        return new BadStateIdException("unknown stateid " + stateId);
    }

    /**
     * Forgets the NFSv4.0 open and lock owners that hold no state and ran no request for {@code idle} (a
     * lease), with what they remembered for retransmissions. The lease reaper calls this. Returns how many.
     */
    public int pruneIdleOwners(Duration idle) {
        long now = clock.millis();
        int pruned = 0;
        for (ClientState cs : clients.values()) {
            if (cs.minorVersion == 0) {
                pruned += cs.pruneIdle(now, idle.toMillis(), closed40::remove);
            }
        }
        return pruned;
    }

    /** {@link #checkIo} for NFSv4.0: the client is the state's; a stale or expired stateid says so. */
    private void checkIoNfs40(StateId id, Inode inode, IoMode mode) throws IOException {
        if (id.equals(StateId.READ_BYPASS) && mode == IoMode.READ) {
            return;
        }
        if (id.equals(StateId.ANONYMOUS) || id.equals(StateId.READ_BYPASS)) {
            checkShareDeny(inode, mode);
            return;
        }
        if (id.isSpecial()) {
            throw new BadStateIdException("stateid " + id + " cannot be used for I/O");
        }
        StateKey key = StateKey.of(id);
        NfsState state = states.get(key);
        if (state == null) {
            OpenState closed = closed40.get(key);
            if (closed != null && mode == IoMode.READ
                    && recentlyClosed.justClosed(key, closed.client.clientId, inode)) {
                checkShareDeny(inode, mode);
                return;
            }
            throw unknownStateId(id);
        }
        if (state.client.minorVersion != 0) {
            throw new BadStateIdException("stateid " + id + " is not one of an NFSv4.0 client");
        }
        state.client.client.renew(clock.millis());
        synchronized (state.file) {
            checkCurrent(state, id, inode);
            OpenState open = state instanceof LockState lock ? lock.open : (OpenState) state;
            if (mode == IoMode.WRITE && !open.share().allowsWrite()) {
                throw new OpenModeException("the file is not open for writing");
            }
        }
    }

    /** The {@code other} of a new state of {@code cs}: NFSv4.0 states carry their client. */
    private byte[] newOther(ClientState cs) {
        return cs.minorVersion == 0 ? ids.next(cs.clientId) : ids.next();
    }

    // ---------------------------------------------------------------- transactions: journal and restore

    /** A new, empty journal for one transactional compound (see {@link StateJournal}). */
    public StateJournal journal() {
        return new StateJournal(this);
    }

    /**
     * Records in {@code journal} every change the current thread makes to open and lock state until the
     * binding is closed. One journal per thread at a time.
     */
    public JournalBinding bind(StateJournal journal) {
        if (journal.table() != this) {
            throw new IllegalArgumentException("a journal of another table");
        }
        StateJournal previous = journals.get();
        journals.set(journal);
        return () -> {
            if (previous == null) {
                journals.remove();
            } else {
                journals.set(previous);
            }
        };
    }

    /**
     * Puts the open and lock state {@code journal} recorded back as it was before the compound (a rollback):
     * opens and lock states the compound created are released; the ones it changed get back their share
     * reservation, asked-for share modes, seqid, byte-range locks and, if it closed or freed them,
     * their existence. States of other owners are not touched. The states of a client whose state was released
     * meanwhile (its lease ran out during the compound) stay released: that is what its expiry asks, not a
     * failure. What cannot be put back (another owner took a conflicting open or lock meanwhile) is logged at
     * ERROR and counted in the result; the rest is still restored.
     *
     * @return how many states could not be restored
     */
    public int restore(StateJournal journal) {
        if (journal.table() != this) {
            throw new IllegalArgumentException("a journal of another table");
        }
        List<StateJournal.Saved> entries = journal.entries();
        if (entries.isEmpty()) {
            return 0;
        }
        StateJournal bound = journals.get();
        journals.remove();
        try {
            int failures = 0;
            for (int i = entries.size() - 1; i >= 0; i--) {
                StateJournal.Saved s = entries.get(i);
                if (s.created() && !release(s.state())) {
                    failures++;
                }
            }
            for (StateJournal.Saved s : entries) {
                if (!s.created() && s.state() instanceof OpenState && !putBack(s)) {
                    failures++;
                }
            }
            for (StateJournal.Saved s : entries) {
                if (!s.created() && s.state() instanceof LockState && !putBack(s)) {
                    failures++;
                }
            }
            return failures;
        } finally {
            if (bound != null) {
                journals.set(bound);
            }
        }
    }

    /** Releases a state a rolled-back compound created; whether that worked (or it was gone already). */
    private boolean release(NfsState state) {
        ClientState cs = state.client;
        cs.lock.readLock().lock();
        try {
            if (cs.released) {
                return true;
            }
            synchronized (state.file) {
                if (!state.isClosed()) {
                    if (state instanceof LockState lock) {
                        dropLock(lock);
                    } else {
                        dropOpen((OpenState) state);
                    }
                    retireIfEmpty(state.file);
                }
            }
            return true;
        } catch (RuntimeException e) {
            LOG.error("rollback: releasing {} {} created by the rolled-back compound failed: {}", kind(state),
                    state.stateId(), e.toString(), e);
            return false;
        } finally {
            cs.lock.readLock().unlock();
        }
    }

    /** Puts a state a rolled-back compound changed back as {@code saved}; whether that worked. */
    private boolean putBack(StateJournal.Saved saved) {
        NfsState state = saved.state();
        ClientState cs = state.client;
        cs.lock.readLock().lock();
        try {
            if (cs.released) {
                // its lease ran out (or it was purged) while the compound ran: an expired client's state is gone
                // whatever the compound did, so there is nothing of it to put back (the client recovers on EXPIRED)
                LOG.debug("rollback: {} {} of client {} stays released: the client's state was released meanwhile",
                        kind(state), state.stateId(), Long.toHexString(cs.clientId));
                return true;
            }
            synchronized (state.file) {
                String problem = putBackLocked(saved);
                if (problem != null) {
                    LOG.error("rollback: cannot restore {} {} of owner {} on {} as it was before the compound: {}",
                            kind(state), state.stateId(), state.owner, state.file.inode, problem);
                    return false;
                }
                return true;
            }
        } catch (RuntimeException e) {
            LOG.error("rollback: restoring {} {} failed: {}", kind(state), state.stateId(), e.toString(), e);
            return false;
        } finally {
            cs.lock.readLock().unlock();
        }
    }

    /** Under the state's file monitor: {@link #putBack}; null, or why it cannot be done. */
    private String putBackLocked(StateJournal.Saved saved) {
        NfsState state = saved.state();
        FileState fs = state.file;
        if (saved.closed()) {
            return null;
        }
        if (state instanceof OpenState open) {
            for (OpenState other : fs.opens.values()) {
                if (other != open && other.share().conflictsWith(saved.share())) {
                    return "its " + saved.share() + " conflicts with " + other.share() + " of " + other.owner;
                }
            }
            if (open.isClosed()) {
                String problem = revive(open);
                if (problem != null) {
                    return problem;
                }
            }
            open.restore(saved.share(), saved.requested());
            open.restoreSeqid(saved.seqid());
            return null;
        }
        LockState lock = (LockState) state;
        if (lock.isClosed()) {
            String problem = revive(lock);
            if (problem != null) {
                return problem;
            }
        }
        lock.restoreSeqid(saved.seqid());
        Optional<ByteRangeLock> conflict = fs.locks.replaceOwner(lock.owner, saved.locks());
        chargeRanges(lock);
        return conflict.map(c -> "the lock " + c + " of another owner overlaps " + saved.locks()).orElse(null);
    }

    /** Under the file monitor: a state the rolled-back compound ended exists again; null, or why not. */
    private String revive(NfsState state) {
        FileState fs = state.file;
        if (state instanceof LockState lock && lock.open.isClosed()) {
            return "the open it was made through is gone";
        }
        Map<StateOwner, ? extends NfsState> byOwner = state instanceof OpenState ? fs.opens : fs.lockStates;
        if (byOwner.containsKey(state.owner)) {
            return "the owner has another " + kind(state) + " of the file now";
        }
        if (fs.retired) {
            if (files.putIfAbsent(fs.inode, fs) != null) {
                return "another client's state of the file was made meanwhile";
            }
            fs.retired = false;
        }
        state.reopen();
        if (state instanceof OpenState open) {
            fs.opens.put(open.owner, open);
            closed40.remove(open.key, open);
        } else {
            LockState lock = (LockState) state;
            fs.lockStates.put(lock.owner, lock);
            lock.open.lockStates.add(lock);
        }
        register(state);
        return null;
    }

    private static String kind(NfsState state) {
        return state instanceof OpenState ? "open" : "lock state";
    }

    /** Under the state's file monitor, before a change: the bound journal, if any, saves the state. */
    private void save(NfsState state) {
        StateJournal journal = journals.get();
        if (journal != null) {
            journal.save(state);
        }
    }

    /** Under the state's file monitor, right after creating it: the bound journal, if any, notes it. */
    private void created(NfsState state) {
        StateJournal journal = journals.get();
        if (journal != null) {
            journal.created(state);
        }
    }

    // ---------------------------------------------------------------- internals

    /** The client's state with its read lock held; the caller unlocks. */
    private ClientState enter(NfsClient client) throws ExpiredException {
        ClientState cs = clients.computeIfAbsent(client.clientId(),
                id -> new ClientState(client, maxOwnersPerClient, closed40::remove));
        cs.lock.readLock().lock();
        if (cs.released) {
            cs.lock.readLock().unlock();
            throw new ExpiredException("the client's state was released");
        }
        return cs;
    }

    /** Runs {@code work} under the monitor of {@code inode}'s file state, creating it if needed. */
    private <T> T onFile(Inode inode, FileWork<T> work) throws IOException {
        while (true) {
            FileState fs = files.computeIfAbsent(inode, FileState::new);
            synchronized (fs) {
                if (fs.retired) {
                    continue;
                }
                try {
                    return work.run(fs);
                } finally {
                    retireIfEmpty(fs);
                }
            }
        }
    }

    /** Under the monitor of {@code fs}: forgets it once nothing is left in it. */
    private void retireIfEmpty(FileState fs) {
        if (!fs.retired && fs.isEmpty()) {
            fs.retired = true;
            files.remove(fs.inode, fs);
            for (java.util.function.Consumer<Inode> listener : lastCloseListeners) {
                try {
                    listener.accept(fs.inode);
                } catch (RuntimeException e) {
                    LOG.error("releasing what was kept for the closed file {} failed: {}", fs.inode, e.toString(), e);
                }
            }
        }
    }

    private void register(NfsState state) {
        states.put(state.key, state);
        state.client.attach(state);
    }

    /** Under the monitor of the lock's file: ends the lock state and its byte-range locks. */
    private void dropLock(LockState lock) {
        save(lock);
        lock.file.locks.removeOwner(lock.owner);
        chargeRanges(lock);
        lock.file.lockStates.remove(lock.owner, lock);
        lock.open.lockStates.remove(lock);
        unregister(lock);
    }

    /** Under the monitor of the open's file: ends the open and the lock states opened through it. */
    private void dropOpen(OpenState open) {
        save(open);
        for (LockState lock : List.copyOf(open.lockStates)) {
            dropLock(lock);
        }
        open.file.opens.remove(open.owner, open);
        unregister(open);
    }

    /**
     * Under the monitor of the lock's file: charges (or releases) the client's memory account for the
     * byte-range locks its owner holds now.
     */
    private static void chargeRanges(LockState lock) {
        int now = lock.file.locks.countOf(lock.owner);
        int delta = now - lock.chargedRanges;
        lock.chargedRanges = now;
        if (delta > 0) {
            lock.client.client.charge().add((long) delta * ClientMemory.RANGE_BYTES);
        } else if (delta < 0) {
            lock.client.client.charge().subtract((long) -delta * ClientMemory.RANGE_BYTES);
        }
    }

    private void unregister(NfsState state) {
        state.markClosed();
        states.remove(state.key, state);
        state.client.detach(state);
    }

    /** The state {@code stateId} names, if it belongs to {@code cs}; its seqid is not checked yet. */
    private NfsState lookup(ClientState cs, StateId stateId) throws BadStateIdException {
        if (stateId.isSpecial()) {
            throw new BadStateIdException("special stateid " + stateId + " names no state");
        }
        NfsState state = states.get(StateKey.of(stateId));
        if (state == null || state.client != cs) {
            throw new BadStateIdException("unknown stateid " + stateId);
        }
        return state;
    }

    private OpenState lookupOpen(ClientState cs, StateId stateId) throws BadStateIdException {
        if (lookup(cs, stateId) instanceof OpenState open) {
            return open;
        }
        throw new BadStateIdException("stateid " + stateId + " is not an open stateid");
    }

    private LockState lookupLock(ClientState cs, StateId stateId) throws BadStateIdException {
        if (lookup(cs, stateId) instanceof LockState lock) {
            return lock;
        }
        throw new BadStateIdException("stateid " + stateId + " is not a lock stateid");
    }

    /** Under the state's file monitor: the state still exists, the seqid is current, the file matches. */
    private static void checkCurrent(NfsState state, StateId requested, Inode file) throws NfsException {
        if (state.isClosed()) {
            throw new BadStateIdException("stateid " + requested + " is gone");
        }
        if (state instanceof OpenState open && open.awaitsConfirmation()) {
            throw new BadStateIdException("stateid " + requested + " awaits OPEN_CONFIRM");
        }
        state.checkSeqid(requested.seqid());
        if (!state.file.inode.equals(file)) {
            throw new BadStateIdException("stateid " + requested + " is for another file");
        }
    }

    private static void checkLockMode(OpenState open, LockType type) throws OpenModeException {
        if (type == LockType.WRITE ? !open.share().allowsWrite() : !open.share().allowsRead()) {
            throw new OpenModeException(type + " lock through an open with " + open.share());
        }
    }

    private void checkShareDeny(Inode inode, IoMode mode) throws LockedException {
        FileState fs = files.get(inode);
        if (fs == null) {
            return;
        }
        synchronized (fs) {
            for (OpenState open : fs.opens.values()) {
                if (mode == IoMode.READ ? open.share().deniesRead() : open.share().deniesWrite()) {
                    throw new LockedException("an open denies " + mode + " to anonymous I/O");
                }
            }
        }
    }
}
