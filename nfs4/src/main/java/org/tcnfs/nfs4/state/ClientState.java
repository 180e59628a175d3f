package org.tcnfs.nfs4.state;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import org.tcnfs.nfs4.status.DelayException;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.ResourceException;

/**
 * The open and lock owners of one client, and the lock that keeps its state from changing while it is
 * released: operations of the client hold {@link #lock}'s read lock (they run in parallel), releasing the
 * client takes the write lock and marks it {@link #released}.
 *
 * <p>NFSv4.1 owners exist while they have state. NFSv4.0 owners carry an {@link OwnerSequence} and stay
 * after their last state is gone, until {@link #pruneIdle} forgets them.
 */
final class ClientState {
    final NfsClient client;
    final long clientId;
    /** The client's minor version: 0 (SETCLIENTID) or 1 (EXCHANGE_ID). */
    final int minorVersion;
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final ConcurrentMap<StateOwner, OpenOwner> openOwners = new ConcurrentHashMap<>();
    private final ConcurrentMap<StateOwner, LockOwner> lockOwners = new ConcurrentHashMap<>();
    private final AtomicInteger stateCount = new AtomicInteger();
    /** Set under the write lock; read under the read lock. */
    boolean released;
    /** NFSv4.0: most open and lock owners kept; see {@link #makeRoomForOwner}. */
    private final int maxOwners;
    /** NFSv4.0: told the last closed open of each open owner forgotten to make room. */
    private final Consumer<StateKey> forgotten;

    ClientState(NfsClient client) {
        this(client, Integer.MAX_VALUE, key -> { });
    }

    ClientState(NfsClient client, int maxOwners, Consumer<StateKey> forgotten) {
        this.client = client;
        this.clientId = client.clientId();
        this.minorVersion = client.minorVersion();
        this.maxOwners = maxOwners;
        this.forgotten = forgotten;
    }

    /** Files {@code state} under its owner, creating the owner if needed. */
    void attach(NfsState state) {
        if (state instanceof OpenState open) {
            openOwners.compute(open.owner, (k, v) -> {
                OpenOwner owner = v == null ? new OpenOwner(k, open.sequence) : v;
                owner.states.add(open);
                return owner;
            });
        } else if (state instanceof LockState lock) {
            lockOwners.compute(lock.owner, (k, v) -> {
                LockOwner owner = v == null ? new LockOwner(k, lock.sequence) : v;
                owner.states.add(lock);
                return owner;
            });
        }
        stateCount.incrementAndGet();
        client.charge().add(stateCost(state.owner));
    }

    /** The bytes an open or lock state of {@code owner} is charged in its client's memory account. */
    static long stateCost(StateOwner owner) {
        return ClientMemory.STATE_BYTES + owner.owner().length;
    }

    /** The bytes an NFSv4.0 owner with its last reply is charged. */
    static long ownerCost(StateOwner owner) {
        return ClientMemory.OWNER_BYTES + owner.owner().length;
    }

    /**
     * Checks that {@code bytes} more of state fit the memory budgets of the client's address and of all
     * clients before {@code what} makes it.
     *
     * @throws ResourceException NFSv4.0 (RFC 7530 13.1.6.4 for OPEN and LOCK)
     * @throws DelayException NFSv4.1, which has no NFS4ERR_RESOURCE: the client retries once state is freed
     */
    void admit(long bytes, String what) throws NfsException {
        if (client.charge().admits(bytes)) {
            return;
        }
        String status = minorVersion == 0 ? "NFS4ERR_RESOURCE" : "NFS4ERR_DELAY";
        client.charge().warnRefused(what + " of client " + Long.toHexString(clientId) + " (" + status + ")", bytes,
                System.currentTimeMillis());
        String message = "client state of " + client + " at its memory budget (settings client-memory, "
                + "client-memory-per-address); " + what + " refused";
        if (minorVersion == 0) {
            throw new ResourceException(message);
        }
        throw new DelayException(message);
    }

    /** As {@link #admit}, for NFSv4.0 owners. */
    private void admitOwner(StateOwner id) throws ResourceException {
        if (client.charge().admits(ownerCost(id))) {
            return;
        }
        client.charge().warnRefused("a new NFSv4.0 owner of client " + Long.toHexString(clientId)
                + " (NFS4ERR_RESOURCE)", ownerCost(id), System.currentTimeMillis());
        throw new ResourceException("client state of " + client + " at its memory budget (settings client-memory, "
                + "client-memory-per-address); new owner refused");
    }

    /**
     * Removes {@code state} from its owner, and an NFSv4.1 owner once it has no state left (NFSv4.0 owners
     * keep their sequence).
     */
    void detach(NfsState state) {
        if (state instanceof OpenState open) {
            openOwners.computeIfPresent(open.owner, (k, v) -> {
                v.states.remove(open);
                return v.states.isEmpty() && v.sequence == null ? null : v;
            });
        } else if (state instanceof LockState lock) {
            lockOwners.computeIfPresent(lock.owner, (k, v) -> {
                v.states.remove(lock);
                return v.states.isEmpty() && v.sequence == null ? null : v;
            });
        }
        stateCount.decrementAndGet();
        client.charge().subtract(stateCost(state.owner));
    }

    /** NFSv4.0 and NFSv4.1 open and lock owners kept. */
    int ownerCount() {
        return openOwners.size() + lockOwners.size();
    }

    /** Whether the client holds any open or lock state. */
    boolean holdsState() {
        return stateCount.get() > 0;
    }

    /** NFSv4.0: the sequence of open owner {@code id}, which is created (unconfirmed) if new. */
    OwnerSequence openSequence(StateOwner id, Clock clock) throws ResourceException {
        if (!openOwners.containsKey(id)) {
            makeRoomForOwner(clock);
            admitOwner(id);
        }
        OwnerSequence seq = openOwners.computeIfAbsent(id, k -> {
            client.charge().add(ownerCost(k));
            return new OpenOwner(k, OwnerSequence.ofOpenOwner(client, k, clock));
        }).sequence;
        seq.used();
        return seq;
    }

    /** NFSv4.0: the sequence of open owner {@code id} if this client has it; creates nothing. */
    Optional<OwnerSequence> existingOpenSequence(StateOwner id) {
        OpenOwner owner = openOwners.get(id);
        return owner == null ? Optional.empty() : Optional.ofNullable(owner.sequence);
    }

    /** NFSv4.0: the sequence of lock owner {@code id}, which is created if new. */
    OwnerSequence lockSequence(StateOwner id, Clock clock) throws ResourceException {
        if (!lockOwners.containsKey(id)) {
            makeRoomForOwner(clock);
            admitOwner(id);
        }
        OwnerSequence seq = lockOwners.computeIfAbsent(id, k -> {
            client.charge().add(ownerCost(k));
            return new LockOwner(k, OwnerSequence.ofLockOwner(client, k, clock));
        }).sequence;
        seq.used();
        return seq;
    }

    /**
     * NFSv4.0: before a new owner is added, bounds the owners the client keeps, each with the reply to its
     * last request (RFC 7530 9.1.7), at {@code maxOwners}: when full, the owners without state that run no
     * request are forgotten, least recently used first, until a quarter of the room is free (a later
     * retransmission of their last request runs again, as for owners the lease reaper forgot). Concurrent
     * new owners may pass the bound by the number of threads adding them.
     *
     * @throws ResourceException when every owner holds state (NFS4ERR_RESOURCE, RFC 7530 13.1.6.4)
     */
    private void makeRoomForOwner(Clock clock) throws ResourceException {
        if (openOwners.size() + lockOwners.size() < maxOwners) {
            return;
        }
        synchronized (this) {
            int size = openOwners.size() + lockOwners.size();
            if (size < maxOwners) {
                return;
            }
            long now = clock.millis();
            List<OwnerSequence> idle = new ArrayList<>();
            openOwners.values().forEach(o -> {
                if (o.sequence != null && o.states.isEmpty()) {
                    idle.add(o.sequence);
                }
            });
            lockOwners.values().forEach(o -> {
                if (o.sequence != null && o.states.isEmpty()) {
                    idle.add(o.sequence);
                }
            });
            idle.sort(java.util.Comparator.comparingLong(OwnerSequence::lastUsedMillis));
            int target = maxOwners - Math.max(1, maxOwners / 4);
            for (OwnerSequence seq : idle) {
                if (openOwners.size() + lockOwners.size() <= target) {
                    break;
                }
                forget(seq, now);
            }
            if (openOwners.size() + lockOwners.size() >= maxOwners) {
                throw new ResourceException("client " + client + " keeps " + maxOwners
                        + " NFSv4.0 owners with state (setting max-owners)");
            }
        }
    }

    /** Removes the owner of {@code seq} if it still holds no state and runs no request. */
    private void forget(OwnerSequence seq, long now) {
        StateOwner id = seq.owner();
        OpenOwner[] gone = new OpenOwner[1];
        openOwners.computeIfPresent(id, (k, v) -> {
            if (v.sequence == seq && v.states.isEmpty() && seq.idle(now, -1)) {
                gone[0] = v;
                return null;
            }
            return v;
        });
        if (gone[0] != null) {
            client.charge().subtract(ownerCost(id));
            StateKey closed = seq.lastClosed();
            if (closed != null) {
                forgotten.accept(closed);
            }
            return;
        }
        boolean[] lockGone = new boolean[1];
        lockOwners.computeIfPresent(id, (k, v) -> {
            lockGone[0] = v.sequence == seq && v.states.isEmpty() && seq.idle(now, -1);
            return lockGone[0] ? null : v;
        });
        if (lockGone[0]) {
            client.charge().subtract(ownerCost(id));
        }
    }

    /** The opens of open owner {@code id} (a copy). */
    List<OpenState> opensOf(StateOwner id) {
        List<OpenState> out = new ArrayList<>();
        openOwners.computeIfPresent(id, (k, v) -> {
            out.addAll(v.states);
            return v;
        });
        return out;
    }

    /** The lock states of lock owner {@code id} (a copy). */
    List<LockState> lockStatesOf(StateOwner id) {
        List<LockState> out = new ArrayList<>();
        lockOwners.computeIfPresent(id, (k, v) -> {
            out.addAll(v.states);
            return v;
        });
        return out;
    }

    /** Forgets lock owner {@code id} if it has no lock state left (RELEASE_LOCKOWNER). */
    void forgetLockOwner(StateOwner id) {
        lockOwners.computeIfPresent(id, (k, v) -> v.states.isEmpty() ? null : v);
    }

    /**
     * Forgets the NFSv4.0 owners without state that ran no request for {@code idleMillis}; {@code forgotten}
     * gets the last closed open of each forgotten open owner. Returns how many owners were forgotten.
     */
    int pruneIdle(long nowMillis, long idleMillis, Consumer<StateKey> forgotten) {
        int pruned = 0;
        for (StateOwner id : List.copyOf(openOwners.keySet())) {
            OpenOwner[] gone = new OpenOwner[1];
            openOwners.computeIfPresent(id, (k, v) -> {
                if (v.sequence != null && v.states.isEmpty() && v.sequence.idle(nowMillis, idleMillis)) {
                    gone[0] = v;
                    return null;
                }
                return v;
            });
            if (gone[0] != null) {
                pruned++;
                client.charge().subtract(ownerCost(id));
                StateKey closed = gone[0].sequence.lastClosed();
                if (closed != null) {
                    forgotten.accept(closed);
                }
            }
        }
        for (StateOwner id : List.copyOf(lockOwners.keySet())) {
            boolean[] gone = new boolean[1];
            lockOwners.computeIfPresent(id, (k, v) -> {
                gone[0] = v.sequence != null && v.states.isEmpty() && v.sequence.idle(nowMillis, idleMillis);
                return gone[0] ? null : v;
            });
            if (gone[0]) {
                pruned++;
                client.charge().subtract(ownerCost(id));
            }
        }
        return pruned;
    }

    /** Every open of the client; call with the write lock held. */
    List<OpenState> opens() {
        List<OpenState> all = new ArrayList<>();
        openOwners.values().forEach(o -> all.addAll(o.states));
        return all;
    }

    /** Every lock state of the client; call with the write lock held. */
    List<LockState> lockStates() {
        List<LockState> all = new ArrayList<>();
        lockOwners.values().forEach(o -> all.addAll(o.states));
        return all;
    }
}
