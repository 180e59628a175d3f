package org.tcnfs.nfs4.state;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;

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

    ClientState(NfsClient client) {
        this.client = client;
        this.clientId = client.clientId();
        this.minorVersion = client.minorVersion();
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
    }

    /** Whether the client holds any open or lock state. */
    boolean holdsState() {
        return stateCount.get() > 0;
    }

    /** NFSv4.0: the sequence of open owner {@code id}, which is created (unconfirmed) if new. */
    OwnerSequence openSequence(StateOwner id, Clock clock) {
        OwnerSequence seq = openOwners.computeIfAbsent(id,
                k -> new OpenOwner(k, OwnerSequence.ofOpenOwner(client, k, clock))).sequence;
        seq.used();
        return seq;
    }

    /** NFSv4.0: the sequence of lock owner {@code id}, which is created if new. */
    OwnerSequence lockSequence(StateOwner id, Clock clock) {
        OwnerSequence seq = lockOwners.computeIfAbsent(id,
                k -> new LockOwner(k, OwnerSequence.ofLockOwner(client, k, clock))).sequence;
        seq.used();
        return seq;
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
