package org.tcnfs.nfs4.state;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The byte-range locks held on one file, with POSIX semantics within each lock owner (RFC 8881 9.2 and
 * section 18.10.4, OPEN4_RESULT_LOCKTYPE_POSIX): a new lock replaces whatever the same owner held over its
 * range (upgrading or downgrading it), adjacent or overlapping locks of one owner and type merge into one,
 * and an unlock may cut a hole into a lock, splitting it. Locks of different owners conflict when they
 * overlap and at least one of them is a WRITE lock; an owner never conflicts with itself.
 *
 * <p>Invariant: the locks of one owner never overlap, and two locks of one owner and type never touch.
 *
 * <p>Not thread-safe: the open state table guards each set with the monitor of its file.
 */
public final class ByteRangeLockSet {
    private static final Comparator<ByteRangeLock> BY_START =
            (a, b) -> Long.compareUnsigned(a.range().first(), b.range().first());

    private final List<ByteRangeLock> locks = new ArrayList<>();

    /** A lock of another owner that keeps {@code owner} from taking {@code type} over {@code range}. */
    public Optional<ByteRangeLock> conflict(StateOwner owner, LockType type, ByteRange range) {
        for (ByteRangeLock l : locks) {
            if (l.blocks(owner, type, range)) {
                return Optional.of(l);
            }
        }
        return Optional.empty();
    }

    /**
     * Takes {@code type} over {@code range} for {@code owner}, unless another owner's lock is in the way.
     *
     * @return the conflicting lock, in which case nothing changed; empty when the lock was taken
     */
    public Optional<ByteRangeLock> lock(StateOwner owner, LockType type, ByteRange range) {
        Optional<ByteRangeLock> conflict = conflict(owner, type, range);
        if (conflict.isPresent()) {
            return conflict;
        }
        unlock(owner, range);
        locks.add(new ByteRangeLock(owner, type, range));
        coalesce(owner);
        return Optional.empty();
    }

    /** Releases whatever {@code owner} holds within {@code range}; parts of locks outside it stay. */
    public void unlock(StateOwner owner, ByteRange range) {
        List<ByteRangeLock> pieces = new ArrayList<>();
        locks.removeIf(l -> {
            if (!l.owner().equals(owner) || !l.range().overlaps(range)) {
                return false;
            }
            ByteRange held = l.range();
            if (Long.compareUnsigned(held.first(), range.first()) < 0) {
                pieces.add(new ByteRangeLock(owner, l.type(), new ByteRange(held.first(), range.first() - 1)));
            }
            if (Long.compareUnsigned(held.last(), range.last()) > 0) {
                pieces.add(new ByteRangeLock(owner, l.type(), new ByteRange(range.last() + 1, held.last())));
            }
            return true;
        });
        locks.addAll(pieces);
    }

    /** Whether {@code owner} holds any lock here. */
    public boolean holds(StateOwner owner) {
        for (ByteRangeLock l : locks) {
            if (l.owner().equals(owner)) {
                return true;
            }
        }
        return false;
    }

    /** The locks {@code owner} holds here, by start offset. */
    public List<ByteRangeLock> locksOf(StateOwner owner) {
        List<ByteRangeLock> mine = new ArrayList<>();
        for (ByteRangeLock l : locks) {
            if (l.owner().equals(owner)) {
                mine.add(l);
            }
        }
        mine.sort(BY_START);
        return List.copyOf(mine);
    }

    /**
     * Makes {@code held} exactly the locks of {@code owner} (a rollback putting back what the owner held
     * before), unless a lock of another owner now overlaps one of them in conflict; then nothing changes.
     *
     * @param held locks of {@code owner} that do not overlap each other
     * @return the conflicting lock of another owner, if any
     */
    public Optional<ByteRangeLock> replaceOwner(StateOwner owner, List<ByteRangeLock> held) {
        for (ByteRangeLock l : held) {
            if (!l.owner().equals(owner)) {
                throw new IllegalArgumentException(l + " is not a lock of " + owner);
            }
            Optional<ByteRangeLock> conflict = conflict(owner, l.type(), l.range());
            if (conflict.isPresent()) {
                return conflict;
            }
        }
        removeOwner(owner);
        locks.addAll(held);
        return Optional.empty();
    }

    /** Releases every lock of {@code owner}. */
    public void removeOwner(StateOwner owner) {
        locks.removeIf(l -> l.owner().equals(owner));
    }

    /** Whether no lock is held. */
    /** How many byte-range locks {@code owner} holds (each is charged in its client's memory account). */
    public int countOf(StateOwner owner) {
        int n = 0;
        for (ByteRangeLock l : locks) {
            if (l.owner().equals(owner)) {
                n++;
            }
        }
        return n;
    }

    public boolean isEmpty() {
        return locks.isEmpty();
    }

    /** The locks held, by start offset. */
    public List<ByteRangeLock> locks() {
        List<ByteRangeLock> sorted = new ArrayList<>(locks);
        sorted.sort(BY_START);
        return List.copyOf(sorted);
    }

    /** Merges the locks of {@code owner} that touch or overlap and have the same type. */
    private void coalesce(StateOwner owner) {
        List<ByteRangeLock> mine = new ArrayList<>();
        locks.removeIf(l -> l.owner().equals(owner) && mine.add(l));
        mine.sort(BY_START);
        ByteRangeLock current = null;
        for (ByteRangeLock l : mine) {
            if (current != null && current.type() == l.type()
                    && (current.range().overlaps(l.range()) || current.range().isFollowedBy(l.range()))) {
                long last = Long.compareUnsigned(current.range().last(), l.range().last()) >= 0
                        ? current.range().last() : l.range().last();
                current = new ByteRangeLock(owner, l.type(), new ByteRange(current.range().first(), last));
            } else {
                if (current != null) {
                    locks.add(current);
                }
                current = l;
            }
        }
        if (current != null) {
            locks.add(current);
        }
    }
}
