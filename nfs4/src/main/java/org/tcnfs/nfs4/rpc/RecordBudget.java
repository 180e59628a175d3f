package org.tcnfs.nfs4.rpc;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.IOEvent;

/**
 * The bytes of RPC records held in memory, across all connections: records still arriving, and whole ones
 * until their request is answered. Past {@code limit} a connection that would hold more stops being read
 * (its client is held back by TCP) until enough is released.
 */
final class RecordBudget {
    private final long limit;
    private final AtomicLong held = new AtomicLong();
    private final Set<RpcRecordFilter.Peer> paused = ConcurrentHashMap.newKeySet();

    RecordBudget(long limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("record budget must be positive: " + limit);
        }
        this.limit = limit;
    }

    long limit() {
        return limit;
    }

    long held() {
        return held.get();
    }

    boolean exceeded() {
        return held.get() > limit;
    }

    /** Adds {@code delta} (negative to release); a release below the limit lets the paused connections read. */
    void add(long delta) {
        long now = held.addAndGet(delta);
        if (delta < 0 && now <= limit && !paused.isEmpty()) {
            resumeAll();
        }
    }

    /** Stops reading {@code peer} while the budget is exceeded. */
    void pause(RpcRecordFilter.Peer peer) {
        synchronized (peer) {
            if (peer.paused || peer.parked || !peer.connection.isOpen()) {
                return;
            }
            peer.paused = true;
            disable(peer.connection);
        }
        paused.add(peer);
        if (!exceeded()) {
            resumeAll();
        }
    }

    /** Forgets a closed connection. */
    void forget(RpcRecordFilter.Peer peer) {
        paused.remove(peer);
    }

    int pausedCount() {
        return paused.size();
    }

    private void resumeAll() {
        for (RpcRecordFilter.Peer peer : paused) {
            if (!paused.remove(peer)) {
                continue;
            }
            synchronized (peer) {
                if (!peer.paused) {
                    continue;
                }
                peer.paused = false;
                peer.lastProgressNanos = System.nanoTime();
                if (!peer.parked && peer.connection.isOpen()) {
                    enable(peer.connection);
                }
            }
        }
    }

    static void disable(Connection<?> connection) {
        try {
            connection.disableIOEvent(IOEvent.READ);
        } catch (IOException e) {
            connection.closeSilently();
        }
    }

    static void enable(Connection<?> connection) {
        try {
            connection.enableIOEvent(IOEvent.READ);
        } catch (IOException e) {
            connection.closeSilently();
        }
    }
}
