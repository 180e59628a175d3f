package org.tcnfs.nfs4.state;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tcnfs.nfs4.vfs.Inode;

/**
 * Open stateids closed in the last moments, so that a READ the client sent before its CLOSE but that the
 * server ran after it (requests of one session run in parallel) is served instead of failing with
 * NFS4ERR_BAD_STATEID. Such a READ is treated like one with the anonymous stateid, which the client could
 * have used anyway; writes never get this leniency. Bounded in size and age; thread-safe.
 */
final class RecentlyClosed {
    /** How long a closed stateid still serves READs that raced its CLOSE. */
    static final Duration WINDOW = Duration.ofSeconds(2);
    private static final int CAPACITY = 4096;

    private record Closed(long clientId, Inode file, long atMillis) {
    }

    private final Clock clock;
    private final Map<StateKey, Closed> closed = new LinkedHashMap<>(64, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<StateKey, Closed> eldest) {
            return size() > CAPACITY;
        }
    };

    RecentlyClosed(Clock clock) {
        this.clock = clock;
    }

    synchronized void remember(StateKey key, long clientId, Inode file) {
        closed.put(key, new Closed(clientId, file, clock.millis()));
    }

    /** Whether {@code key} was an open of {@code clientId} on {@code file} closed within {@link #WINDOW}. */
    synchronized boolean justClosed(StateKey key, long clientId, Inode file) {
        Closed c = closed.get(key);
        return c != null && c.clientId == clientId && c.file.equals(file)
                && clock.millis() - c.atMillis <= WINDOW.toMillis();
    }
}
