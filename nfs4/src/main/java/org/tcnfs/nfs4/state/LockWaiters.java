package org.tcnfs.nfs4.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The blocked lockers of one file, first come first served (RFC 7530 9.4): lock owners whose blocking LOCK
 * was denied, each with the lock it wants and the time its place lapses unless it asks again. A lock
 * request is denied while an earlier waiter of another owner wants a conflicting lock, even when no lock is
 * held, so that a lock released goes to the first waiter that polls for it; a waiter that does not ask
 * again within its time loses its place.
 *
 * <p>Not thread-safe: the open state table guards it with the monitor of its file.
 */
final class LockWaiters {
    /** One blocked locker: the lock it wants, and until when (epoch milliseconds) it keeps its place. */
    private record Waiter(ByteRangeLock wanted, long expiresAtMillis) {
    }

    private final List<Waiter> queue = new ArrayList<>();

    /**
     * The lock wanted by the first waiter ahead of {@code owner} (all waiters if {@code owner} does not
     * wait) that conflicts with {@code type} over {@code range}; drops waiters whose place lapsed.
     */
    Optional<ByteRangeLock> ahead(StateOwner owner, LockType type, ByteRange range, long nowMillis) {
        queue.removeIf(w -> w.expiresAtMillis() <= nowMillis);
        for (Waiter w : queue) {
            if (w.wanted().owner().equals(owner)) {
                break;
            }
            if (w.wanted().blocks(owner, type, range)) {
                return Optional.of(w.wanted());
            }
        }
        return Optional.empty();
    }

    /**
     * Queues {@code owner} for {@code type} over {@code range} until {@code expiresAtMillis}; an owner that
     * waits already keeps its place, with the new lock and time.
     */
    void enqueue(StateOwner owner, LockType type, ByteRange range, long expiresAtMillis) {
        Waiter waiter = new Waiter(new ByteRangeLock(owner, type, range), expiresAtMillis);
        for (int i = 0; i < queue.size(); i++) {
            if (queue.get(i).wanted().owner().equals(owner)) {
                queue.set(i, waiter);
                return;
            }
        }
        queue.add(waiter);
    }

    /** Forgets {@code owner}'s place (its lock was granted, or it is gone). */
    void remove(StateOwner owner) {
        queue.removeIf(w -> w.wanted().owner().equals(owner));
    }

    /** How many lockers wait. */
    int size() {
        return queue.size();
    }
}
