package org.tcnfs.nfs4.rpc;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.IOEvent;

/**
 * The bytes of RPC records held in memory, across all connections: records still arriving, and whole ones
 * until their request is answered. Past {@code limit} a connection that would hold more stops being read
 * (its client is held back by TCP) until enough is released. One connection at a time, the first that meets the
 * budget exceeded, goes on being read until its record is whole ({@link #mayFinish}): else records that all
 * arrive at once (eight 16 MiB compounds against 64 MiB) could fill the budget with parts, none whole, none
 * served, and nothing would move until the idle timeout closed a connection. So the bytes held stay within
 * {@code limit} plus one record.
 */
final class RecordBudget {
    private final long limit;
    private final AtomicLong held = new AtomicLong();
    private final Set<RpcRecordFilter.Peer> paused = ConcurrentHashMap.newKeySet();
    /** The connection read past the limit until its record is whole, or null. */
    private final AtomicReference<RpcRecordFilter.Peer> finisher = new AtomicReference<>();
    /** When the current finisher got that role ({@link System#nanoTime}). */
    private volatile long finisherSinceNanos;

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
        finished(peer);
    }

    /**
     * Whether {@code peer}, whose record is not whole while the budget is exceeded, may still be read to finish
     * it: yes for the one connection doing so (the first to ask while none is, or the one before it closed).
     */
    boolean mayFinish(RpcRecordFilter.Peer peer) {
        RpcRecordFilter.Peer current = finisher.get();
        if (current == peer) {
            return true;
        }
        if (current != null && current.connection.isOpen()) {
            return false;
        }
        if (finisher.compareAndSet(current, peer)) {
            finisherSinceNanos = System.nanoTime();
            return true;
        }
        return false;
    }

    /**
     * The connection that has been finishing its record past the limit for longer than {@code termNanos} (a
     * client that trickles), or null: it is to be closed, else the connections held back would wait on it.
     */
    RpcRecordFilter.Peer overdueFinisher(long nowNanos, long termNanos) {
        RpcRecordFilter.Peer current = finisher.get();
        return current != null && current.connection.isOpen() && nowNanos - finisherSinceNanos > termNanos
                ? current : null;
    }

    /** {@code peer}'s record is whole (or its connection closed): another connection may finish its record. */
    void finished(RpcRecordFilter.Peer peer) {
        finisher.compareAndSet(peer, null);
    }

    /** Whether some connection is being read past the limit to finish its record. */
    boolean finishing() {
        RpcRecordFilter.Peer current = finisher.get();
        return current != null && current.connection.isOpen();
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
