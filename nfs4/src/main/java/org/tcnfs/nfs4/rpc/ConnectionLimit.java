package org.tcnfs.nfs4.rpc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.ConnectionProbe;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.log.RateLimitedLog;

/**
 * Bounds the connections open at once. Without it, connections opened and left idle (which
 * {@link RpcRecordFilter} rightly leaves alone between records) were kept for ever, one file descriptor each, until
 * the process ran out of them: then no new client was accepted and nothing was logged.
 *
 * <p>When a connection is accepted beyond {@code maxConnections}, the server closes the connection that has been
 * quiet longest among those of the source addresses holding the most connections (the new one included), much as
 * knfsd closes its oldest connection past its limit. So a host that opens thousands of connections loses its own,
 * while a client of another address gets in and keeps its connection; an NFS client whose idle connection was closed
 * reconnects when it next sends. Each such close logs one (rate-limited) line.
 *
 * <p>Thread-safe: accepts and closes take this object's lock; reads only look the connection up and stamp a
 * volatile field.
 */
final class ConnectionLimit extends BaseFilter {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionLimit.class);
    private static final RateLimitedLog AT_LIMIT = RateLimitedLog.of(LOG, 10, Duration.ofSeconds(10));

    /** One open connection, and when a byte of it was last read. */
    private static final class Tracked {
        final Connection<?> connection;
        final InetAddress address;
        volatile long lastActiveNanos = System.nanoTime();

        Tracked(Connection<?> connection, InetAddress address) {
            this.connection = connection;
            this.address = address;
        }
    }

    private final int maxConnections;
    /** Open connections; changed under this object's lock, read without it. */
    private final Map<Connection<?>, Tracked> open = new ConcurrentHashMap<>();
    /** How many of {@link #open} each source address holds; guarded by this. */
    private final Map<InetAddress, Integer> perAddress = new HashMap<>();
    private final AtomicLong closedAtLimit = new AtomicLong();

    /** @param maxConnections most connections open at once, at least 1 */
    ConnectionLimit(int maxConnections) {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be positive: " + maxConnections);
        }
        this.maxConnections = maxConnections;
    }

    @Override
    public NextAction handleAccept(FilterChainContext ctx) throws IOException {
        Connection<?> connection = ctx.getConnection();
        Tracked victim;
        int count;
        int ofAddress;
        synchronized (this) {
            if (!connection.isOpen()) {
                return ctx.getStopAction(); // closed already: its close event may have come and gone
            }
            Tracked fresh = new Tracked(connection, address(connection));
            open.put(connection, fresh);
            perAddress.merge(fresh.address, 1, Integer::sum);
            count = open.size();
            if (count <= maxConnections) {
                return ctx.getInvokeAction();
            }
            ofAddress = perAddress.values().stream().mapToInt(Integer::intValue).max().orElse(0);
            victim = quietestOfAddressesHolding(ofAddress);
            forget(victim);
        }
        closedAtLimit.incrementAndGet();
        long quietSeconds = Duration.ofNanos(System.nanoTime() - victim.lastActiveNanos).toSeconds();
        AT_LIMIT.warn("closing connection from {}: {} connections open, more than max-connections ({}); it was the "
                + "one quiet longest ({} s) of an address holding the most ({}). Raise max-connections if these are "
                + "real clients", victim.connection.getPeerAddress(), count, maxConnections, quietSeconds, ofAddress);
        victim.connection.closeSilently();
        return victim.connection == connection ? ctx.getStopAction() : ctx.getInvokeAction();
    }

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        Tracked tracked = open.get(ctx.getConnection());
        if (tracked != null) {
            tracked.lastActiveNanos = System.nanoTime();
        }
        return ctx.getInvokeAction();
    }

    /** Connections open now. */
    int connections() {
        return open.size();
    }

    /** Connections closed so far because more than {@code maxConnections} were open. */
    long closedAtLimit() {
        return closedAtLimit.get();
    }

    /** Forgets connections as they close. */
    ConnectionProbe closeProbe() {
        return new ConnectionProbe.Adapter() {
            @Override
            public void onCloseEvent(Connection connection) {
                synchronized (ConnectionLimit.this) {
                    Tracked tracked = open.get(connection);
                    if (tracked != null) {
                        forget(tracked);
                    }
                }
            }
        };
    }

    /**
     * The connection whose last byte came longest ago among those of the addresses holding {@code count}
     * connections (any one among equals).
     */
    private Tracked quietestOfAddressesHolding(int count) {
        Tracked quietest = null;
        for (Tracked t : open.values()) {
            if (perAddress.get(t.address) == count
                    && (quietest == null || t.lastActiveNanos - quietest.lastActiveNanos < 0)) {
                quietest = t;
            }
        }
        return quietest;
    }

    private void forget(Tracked tracked) {
        open.remove(tracked.connection);
        perAddress.computeIfPresent(tracked.address, (a, n) -> n > 1 ? n - 1 : null);
    }

    private static InetAddress address(Connection<?> connection) {
        Object peer = connection.getPeerAddress();
        return peer instanceof InetSocketAddress a && a.getAddress() != null ? a.getAddress()
                : InetAddress.getLoopbackAddress();
    }
}
