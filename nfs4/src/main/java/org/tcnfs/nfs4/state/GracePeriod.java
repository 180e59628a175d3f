package org.tcnfs.nfs4.state;

import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The grace period after a start (RFC 8881 8.4.2): while it lasts, clients of the previous run may
 * reclaim their state and nobody may take new state.
 *
 * <p>It lasts {@code grace} from the start, and ends early once every client the previous run recorded
 * has sent RECLAIM_COMPLETE (or destroyed its client id), or at once when the record lists none. Without
 * a record ({@code expected == null}: no record directory, or an unreadable record) nobody is known, so it
 * runs its whole time. Once over it stays over. The moment it is found over, one INFO line says so (nothing
 * when there was no grace period to begin with).
 *
 * <p>Thread-safe and lock-free.
 */
final class GracePeriod {
    private static final Logger LOG = LoggerFactory.getLogger(GracePeriod.class);

    private final long startMillis;
    private final long endMillis;
    private final int expectedAtStart;
    private final Set<OwnerId> expected;
    private final AtomicBoolean over;

    /**
     * @param startMillis when the server started, by its clock
     * @param grace how long the grace period lasts at most (zero: none)
     * @param expected the owners recorded by the previous run, or {@code null} when unknown
     */
    GracePeriod(long startMillis, Duration grace, Collection<OwnerId> expected) {
        this.startMillis = startMillis;
        this.endMillis = startMillis + grace.toMillis();
        if (expected == null) {
            this.expected = null;
        } else {
            this.expected = ConcurrentHashMap.newKeySet();
            this.expected.addAll(expected);
        }
        this.expectedAtStart = expected == null ? -1 : this.expected.size();
        this.over = new AtomicBoolean(grace.isZero() || expected != null && expected.isEmpty());
    }

    /** When the grace period ends at the latest, by the clock of the constructor. */
    long endMillis() {
        return endMillis;
    }

    /** Whether the grace period still runs at {@code nowMillis}. */
    boolean inGrace(long nowMillis) {
        if (over.get()) {
            return false;
        }
        if (nowMillis >= endMillis || (expected != null && expected.isEmpty())) {
            if (over.compareAndSet(false, true)) {
                LOG.info("grace period over after {} s ({}): clients may now take new opens and locks",
                        Math.max(0, nowMillis - startMillis) / 1000, nowMillis >= endMillis
                                ? "its time ran out" + (expected == null ? "" : ", " + expected.size() + " of "
                                        + expectedAtStart + " recorded client(s) did not reclaim")
                                : "all " + expectedAtStart + " recorded client(s) finished reclaiming");
            }
            return false;
        }
        return true;
    }

    /** Whether {@code owner} may reclaim at {@code nowMillis}: grace runs and the owner is (or may be) expected. */
    boolean mayReclaim(OwnerId owner, long nowMillis) {
        return inGrace(nowMillis) && (expected == null || expected.contains(owner));
    }

    /** {@code owner} reclaims nothing more; the grace period may end sooner. */
    void reclaimDone(OwnerId owner) {
        if (expected != null) {
            expected.remove(owner);
        }
    }

    /** The recorded owners still expected to reclaim; empty once grace is over or when unknown. */
    Set<OwnerId> stillExpected(long nowMillis) {
        if (expected == null || !inGrace(nowMillis)) {
            return Set.of();
        }
        return Set.copyOf(expected);
    }
}
