package org.tcnfs.nfs4.rpc;

import java.io.IOException;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.ConnectionProbe;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.log.RateLimitedLog;

/**
 * The bytes of replies written by the server but not yet sent to the socket, over all connections. Grizzly
 * bounds each connection's queue ({@link NfsServer#REPLY_QUEUE_BYTES}); this bounds their sum: past
 * {@code limit} no connection's next request is taken ({@link #exceeded}, {@link #whenBelow}) until replies
 * drain; then the waiting requests are taken a few at a time, each reserving {@code reserve} bytes (about its
 * largest reply) until it has run, so that they cannot overshoot the limit together. Newest first: the requests
 * waiting longest are most likely those of the clients that do not read (each connection has one request
 * waiting at most, as it is not read meanwhile). NULL calls (tiny replies) never wait. So that clients which never read their replies cannot hold the budget (and with it every other
 * client) for ever, while it is exceeded a connection whose unsent replies make no progress for
 * {@code stallTimeout} is closed ({@link #closeStalled}).
 *
 * <p>As a filter it sits next to the transport and counts every buffer written; its {@link #probe()} counts
 * the bytes the transport wrote and forgets a closed connection's remainder. Thread-safe.
 */
final class ReplyBudget extends BaseFilter {
    private static final Logger LOG = LoggerFactory.getLogger(ReplyBudget.class);
    private static final RateLimitedLog STALLED = RateLimitedLog.of(LOG, 10, Duration.ofSeconds(10));

    /** One connection's unsent bytes and when they last moved. */
    private static final class Pending {
        final AtomicLong bytes = new AtomicLong();
        volatile long lastProgressNanos = System.nanoTime();
    }

    private final long limit;
    private final long reserve;
    private final Duration stallTimeout;
    private final AtomicLong unsent = new AtomicLong();
    private final AtomicLong reserved = new AtomicLong();
    private final Map<Connection<?>, Pending> pending = new ConcurrentHashMap<>();
    private final Deque<Runnable> waiters = new ConcurrentLinkedDeque<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong closed = new AtomicLong();

    ReplyBudget(long limit, long reserve, Duration stallTimeout) {
        if (limit < 1 || reserve < 1 || stallTimeout.isNegative() || stallTimeout.isZero()) {
            throw new IllegalArgumentException("reply budget, reserve and stall timeout must be positive");
        }
        this.limit = limit;
        this.reserve = Math.min(reserve, limit);
        this.stallTimeout = stallTimeout;
    }

    long limit() {
        return limit;
    }

    /** Bytes of replies not yet sent, over all connections. */
    long unsent() {
        return unsent.get();
    }

    boolean exceeded() {
        return unsent.get() + reserved.get() > limit;
    }

    /** Requests whose connection waits now for the budget to drain. */
    int waitingCount() {
        return waiting.get();
    }

    /** Connections closed so far because their replies stalled while the budget was exceeded. */
    long stalledClosed() {
        return closed.get();
    }

    /**
     * Runs {@code task} (quickly, on the thread that releases) once the unsent bytes and the reservations leave
     * room for one more reply; the task holds a reservation, to be given back with {@link #unreserve()} once
     * its request has run (its reply is then counted as unsent).
     */
    void whenBelow(Runnable task) {
        waiting.incrementAndGet();
        waiters.add(task);
        if (!exceeded()) {
            runWaiters();
        }
    }

    /**
     * Reserves room for the reply of a request about to be taken, if the unsent bytes and the reservations
     * leave it (or nothing is reserved and the budget is not exceeded); give it back with {@link #unreserve()}
     * once the request has run. Every request but a NULL call is taken under a reservation, so the requests
     * waiting for a worker cannot together overshoot the budget either.
     */
    boolean tryReserve() {
        while (true) {
            long r = reserved.get();
            if (!roomFor(r)) {
                return false;
            }
            if (reserved.compareAndSet(r, r + reserve)) {
                return true;
            }
        }
    }

    private boolean roomFor(long r) {
        long u = unsent.get();
        return u + r + reserve <= limit || (r == 0 && u <= limit);
    }

    /** Gives back the reservation of a task {@link #whenBelow} ran. */
    void unreserve() {
        release(reserved, reserve);
    }

    @Override
    public NextAction handleWrite(FilterChainContext ctx) throws IOException {
        if (ctx.getMessage() instanceof Buffer b && b.remaining() > 0 && ctx.getConnection().isOpen()) {
            Pending p = pending.computeIfAbsent(ctx.getConnection(), c -> new Pending());
            if (p.bytes.getAndAdd(b.remaining()) == 0) {
                p.lastProgressNanos = System.nanoTime();
            }
            unsent.addAndGet(b.remaining());
        }
        return ctx.getInvokeAction();
    }

    /** Counts what the transport writes and forgets closed connections. */
    ConnectionProbe probe() {
        return new ConnectionProbe.Adapter() {
            @Override
            public void onWriteEvent(Connection connection, Buffer data, long size) {
                Pending p = pending.get(connection);
                if (p == null || size <= 0) {
                    return;
                }
                p.lastProgressNanos = System.nanoTime();
                long was = p.bytes.getAndUpdate(n -> Math.max(0, n - size));
                release(unsent, Math.min(was, size));
            }

            @Override
            public void onCloseEvent(Connection connection) {
                Pending p = pending.remove(connection);
                if (p != null) {
                    release(unsent, p.bytes.getAndSet(0));
                }
            }
        };
    }

    /** While the budget is exceeded, closes the connections whose unsent replies did not move for the timeout. */
    void closeStalled() {
        if (!exceeded()) {
            return;
        }
        long now = System.nanoTime();
        for (Map.Entry<Connection<?>, Pending> e : pending.entrySet()) {
            Pending p = e.getValue();
            if (!e.getKey().isOpen() && pending.remove(e.getKey(), p)) {
                release(unsent, p.bytes.getAndSet(0)); // charged after its close event
                continue;
            }
            long bytes = p.bytes.get();
            if (bytes > 0 && now - p.lastProgressNanos > stallTimeout.toNanos()) {
                closed.incrementAndGet();
                STALLED.warn("closing the connection from {}: {} bytes of its replies unsent for over {} ms while "
                        + "all connections' unsent replies ({} bytes) exceed rpc-reply-budget ({} bytes); its "
                        + "client does not read its replies", e.getKey().getPeerAddress(), bytes,
                        stallTimeout.toMillis(), unsent.get(), limit);
                // not close(): that waits for the unsent replies to be written, which is what never happens
                e.getKey().terminateSilently();
            }
        }
    }

    private void release(AtomicLong counter, long bytes) {
        if (bytes <= 0) {
            return;
        }
        counter.addAndGet(-bytes);
        if (!waiters.isEmpty() && !exceeded()) {
            runWaiters();
        }
    }

    private void runWaiters() {
        while (true) {
            long r = reserved.get();
            if (!roomFor(r)) {
                return; // the requests taken already will bring this back here when they have run
            }
            if (!reserved.compareAndSet(r, r + reserve)) {
                continue;
            }
            Runnable task = waiters.pollLast();
            if (task == null) {
                reserved.addAndGet(-reserve);
                return;
            }
            waiting.decrementAndGet();
            task.run();
        }
    }
}
