package org.tcnfs.nfs4.rpc;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.ConnectionProbe;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.memory.BuffersBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.log.RateLimitedLog;

/**
 * Cuts the TCP byte stream into RPC records (RFC 5531 record marking) with bounds: a record whose fragments
 * add up to more than {@code maxRecordBytes} closes its connection as soon as the marker that claims it
 * arrives (before its data); the bytes of records still arriving count against the {@link RecordBudget},
 * past which the connection is no longer read; a record that does not progress for {@code idleTimeout}
 * closes its connection ({@link #closeIdle}), and so does one that is still not whole after {@link
 * #RECORD_DEADLINE_FACTOR} times {@code idleTimeout} of being read (a sender trickling a byte now and then, never
 * idle for long, holds a connection and buffer space no longer than that). Each case logs one (rate-limited) line.
 *
 * <p>Passes each whole record on as an {@link RpcRecord}, whose bytes stay charged to the budget until the
 * request is answered.
 */
final class RpcRecordFilter extends BaseFilter {
    private static final Logger LOG = LoggerFactory.getLogger(RpcRecordFilter.class);
    private static final RateLimitedLog TOO_LONG = RateLimitedLog.of(LOG, 10, Duration.ofSeconds(10));
    private static final RateLimitedLog IDLE = RateLimitedLog.of(LOG, 10, Duration.ofSeconds(10));
    private static final RateLimitedLog SLOW = RateLimitedLog.of(LOG, 10, Duration.ofSeconds(10));
    /**
     * How many idle timeouts a record may take to arrive, counted while the server reads its connection (not while
     * the connection is paused by the budget or parked for a worker): with the default 60 s, a 1 MiB WRITE must
     * come faster than about 4.4 KiB/s.
     */
    static final int RECORD_DEADLINE_FACTOR = 4;
    private static final int LAST_FRAGMENT = 0x80000000;
    private static final int SIZE_MASK = 0x7fffffff;

    /**
     * A whole RPC record (the fragments joined, markers removed), the bytes it holds in the budget, and whether
     * bytes of the connection's next record were received with it (the client sent more without waiting).
     */
    record RpcRecord(Xdr xdr, int bytes, boolean followed) {
    }

    /** What is known of one connection; guarded by itself for the pause flags. */
    static final class Peer {
        final Connection<?> connection;
        /** Bytes of a record still arriving (and of whole records not yet passed on). */
        long held;
        /** Bytes of the current record's markers and fragments scanned so far, from the buffer's position. */
        int scanned;
        /** Sum of the markers and fragment sizes claimed so far by the current record. */
        long claimed;
        volatile long lastProgressNanos = System.nanoTime();
        /**
         * How long the current record has been read so far (added up by {@link #closeIdle} while bytes of it are
         * held and the connection is read), reset when a record is whole.
         */
        long readingNanos;
        /** Not read because the budget is exceeded. */
        boolean paused;
        /** Not read because a request of it waits for a worker. */
        boolean parked;

        Peer(Connection<?> connection) {
            this.connection = connection;
        }
    }

    private final int maxRecordBytes;
    private final long idleTimeoutNanos;
    /** When {@link #closeIdle} last ran ({@link System#nanoTime()}); only its own thread uses it. */
    private long lastSweepNanos = System.nanoTime();
    private final RecordBudget budget;
    private final Map<Connection<?>, Peer> peers = new ConcurrentHashMap<>();

    RpcRecordFilter(int maxRecordBytes, Duration idleTimeout, RecordBudget budget) {
        this.maxRecordBytes = maxRecordBytes;
        this.idleTimeoutNanos = idleTimeout.toNanos();
        this.budget = budget;
    }

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        Buffer buffer = ctx.getMessage();
        Connection<?> connection = ctx.getConnection();
        if (buffer == null || !connection.isOpen()) {
            return ctx.getStopAction();
        }
        Peer peer = peers.computeIfAbsent(connection, Peer::new);
        peer.lastProgressNanos = System.nanoTime();
        int start = buffer.position();
        int at = start + peer.scanned;
        boolean whole = false;
        while (buffer.limit() - at >= Integer.BYTES) {
            int marker = buffer.getInt(at);
            long size = marker & SIZE_MASK;
            peer.claimed += Integer.BYTES + size;
            if (peer.claimed > maxRecordBytes + (long) Integer.BYTES) {
                TOO_LONG.warn("closing connection from {}: RPC record of at least {} bytes, more than the largest "
                        + "request a session may negotiate ({} bytes)", connection.getPeerAddress(), peer.claimed,
                        maxRecordBytes);
                setHeld(peer, 0);
                connection.closeSilently();
                return ctx.getStopAction();
            }
            if (at + Integer.BYTES + size > buffer.limit()) {
                peer.claimed -= Integer.BYTES + size; // scanned again once its data has arrived
                break;
            }
            at += Integer.BYTES + (int) size;
            if ((marker & LAST_FRAGMENT) != 0) {
                whole = true;
                break;
            }
        }
        peer.scanned = at - start;
        if (!whole) {
            setHeld(peer, buffer.remaining());
            if (budget.exceeded() && !budget.mayFinish(peer)) {
                budget.pause(peer);
            }
            return ctx.getStopAction(buffer);
        }
        budget.finished(peer);
        synchronized (peer) {
            peer.readingNanos = 0;
        }
        int recordEnd = at;
        Buffer record = assemble(buffer, start, recordEnd, ctx);
        buffer.position(recordEnd);
        Buffer remainder = buffer.hasRemaining() ? buffer.split(recordEnd) : null;
        peer.scanned = 0;
        peer.claimed = 0;
        int bytes = recordEnd - start;
        budget.add(bytes);
        setHeld(peer, remainder == null ? 0 : remainder.remaining());
        ctx.setMessage(new RpcRecord(new Xdr(record, ctx.getMemoryManager()), bytes, remainder != null));
        return ctx.getInvokeAction(remainder);
    }

    /** The fragments between {@code start} and {@code end} without their markers, sharing the buffer's memory. */
    private static Buffer assemble(Buffer buffer, int start, int end, FilterChainContext ctx) {
        Buffer single = null;
        BuffersBuffer several = null;
        int at = start;
        while (at < end) {
            int size = buffer.getInt(at) & SIZE_MASK;
            Buffer fragment = buffer.slice(at + Integer.BYTES, at + Integer.BYTES + size);
            at += Integer.BYTES + size;
            if (single == null && several == null) {
                single = fragment;
            } else {
                if (several == null) {
                    several = BuffersBuffer.create(ctx.getMemoryManager());
                    several.append(single);
                }
                several.append(fragment);
            }
        }
        return several != null ? several : single;
    }

    private void setHeld(Peer peer, long bytes) {
        long delta;
        synchronized (peer) {
            delta = bytes - peer.held;
            peer.held = bytes;
        }
        if (delta != 0) {
            budget.add(delta);
        }
    }

    /** Marks {@code connection} as waiting for a worker (not read, not idle) or no longer so. */
    void parked(Connection<?> connection, boolean parked) {
        Peer peer = peers.get(connection);
        if (peer != null) {
            synchronized (peer) {
                peer.parked = parked;
                peer.lastProgressNanos = System.nanoTime();
            }
        }
    }

    /**
     * Closes connections whose partly received record has not progressed for the idle timeout. A connection
     * the server itself stopped reading (its record over the budget) is not idle while whole records are in
     * service, whose answers give their bytes back, or while another connection finishes its record past the
     * budget ({@link RecordBudget#mayFinish}), which it must do within the idle timeout; only when neither moves
     * do paused connections count as idle too.
     */
    void closeIdle() {
        long now = System.nanoTime();
        long sinceLastSweep = now - lastSweepNanos;
        lastSweepNanos = now;
        long partial = 0;
        for (Peer peer : peers.values()) {
            synchronized (peer) {
                partial += peer.held;
            }
        }
        RpcRecordFilter.Peer overdue = budget.overdueFinisher(now, idleTimeoutNanos);
        if (overdue != null) {
            IDLE.warn("closing connection from {}: its RPC record, read past rpc-buffer-budget so that it can be "
                    + "served, is still not whole after {} s", overdue.connection.getPeerAddress(),
                    Duration.ofNanos(idleTimeoutNanos).toSeconds());
            budget.finished(overdue);
            overdue.connection.closeSilently();
        }
        boolean inService = budget.held() > partial || budget.finishing();
        for (Peer peer : peers.values()) {
            long held;
            boolean parked;
            boolean waits;
            long reading;
            synchronized (peer) {
                held = peer.held;
                parked = peer.parked;
                waits = peer.paused && inService;
                if (held > 0 && !parked && !peer.paused) {
                    peer.readingNanos += sinceLastSweep;
                }
                reading = peer.readingNanos;
            }
            if (held > 0 && !parked && !waits && now - peer.lastProgressNanos > idleTimeoutNanos) {
                IDLE.warn("closing connection from {}: {} bytes of an RPC record, then nothing for {} s",
                        peer.connection.getPeerAddress(), held, Duration.ofNanos(idleTimeoutNanos).toSeconds());
                peer.connection.closeSilently();
            } else if (held > 0 && reading > RECORD_DEADLINE_FACTOR * idleTimeoutNanos) {
                SLOW.warn("closing connection from {}: its RPC record is still not whole after {} s of reading "
                        + "({} bytes so far; a record must arrive within {} x rpc-idle-timeout)",
                        peer.connection.getPeerAddress(), Duration.ofNanos(reading).toSeconds(), held,
                        RECORD_DEADLINE_FACTOR);
                peer.connection.closeSilently();
            }
        }
    }

    /** Connections known (open, or closed and not yet forgotten). */
    int connections() {
        return peers.size();
    }

    /** Forgets connections as they close and releases what they held. */
    ConnectionProbe closeProbe() {
        return new ConnectionProbe.Adapter() {
            @Override
            public void onCloseEvent(Connection connection) {
                Peer peer = peers.remove(connection);
                if (peer != null) {
                    budget.forget(peer);
                    setHeld(peer, 0);
                }
            }
        };
    }
}
