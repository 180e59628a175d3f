package org.tcnfs.nfs4.state;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The open and lock owners of one client, and the lock that keeps its state from changing while it is
 * released: operations of the client hold {@link #lock}'s read lock (they run in parallel), releasing the
 * client takes the write lock and marks it {@link #released}.
 */
final class ClientState {
    final long clientId;
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final ConcurrentMap<StateOwner, OpenOwner> openOwners = new ConcurrentHashMap<>();
    private final ConcurrentMap<StateOwner, LockOwner> lockOwners = new ConcurrentHashMap<>();
    /** Set under the write lock; read under the read lock. */
    boolean released;

    ClientState(long clientId) {
        this.clientId = clientId;
    }

    /** Files {@code state} under its owner, creating the owner if needed. */
    void attach(NfsState state) {
        if (state instanceof OpenState open) {
            openOwners.compute(open.owner, (k, v) -> {
                OpenOwner owner = v == null ? new OpenOwner(k) : v;
                owner.states.add(open);
                return owner;
            });
        } else if (state instanceof LockState lock) {
            lockOwners.compute(lock.owner, (k, v) -> {
                LockOwner owner = v == null ? new LockOwner(k) : v;
                owner.states.add(lock);
                return owner;
            });
        }
    }

    /** Removes {@code state} from its owner, and the owner once it has no state left. */
    void detach(NfsState state) {
        if (state instanceof OpenState open) {
            openOwners.computeIfPresent(open.owner, (k, v) -> {
                v.states.remove(open);
                return v.states.isEmpty() ? null : v;
            });
        } else if (state instanceof LockState lock) {
            lockOwners.computeIfPresent(lock.owner, (k, v) -> {
                v.states.remove(lock);
                return v.states.isEmpty() ? null : v;
            });
        }
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
