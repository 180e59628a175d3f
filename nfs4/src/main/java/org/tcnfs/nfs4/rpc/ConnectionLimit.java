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
 * <p>When a connection is accepted beyond {@code maxConnections}, the server closes one: among the connections that
 * have never sent a byte (the new one included) if there are any, else among all, the one that has been quiet
 * longest of the source addresses holding the most such connections, much as knfsd closes its oldest connection past
 * its limit. So a host that opens thousands of connections loses its own, and so do hosts that each open a few and
 * send nothing, from as many addresses as they like: a client that has sent a call keeps its connection, idle or not,
 * while silent ones are left (an NFS client whose idle connection was closed anyway, when every connection has
 * spoken, reconnects when it next sends). A connection that sends part of a record and stops is closed by
 * {@link RpcRecordFilter} after the idle timeout. Each close at the limit logs one (rate-limited) line.
 *
 * <p>Thread-safe: accepts and closes take this object's lock; reads only look the connection up and stamp a
 * volatile field.
 */
final class ConnectionLimit extends BaseFilter {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionLimit.class);
    private static final RateLimitedLog AT_LIMIT = RateLimitedLog.of(LOG, 10, Duration.ofSeconds(10));

    /** One open connection, when a byte of it was last read, and whether one ever was. */
    private static final class Tracked {
        final Connection<?> connection;
        final InetAddress address;
        volatile long lastActiveNanos = System.nanoTime();
        volatile boolean spoke;

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
            Map<InetAddress, Integer> silent = silentPerAddress();
            boolean silentOnly = !silent.isEmpty();
            Map<InetAddress, Integer> candidates = silentOnly ? silent : perAddress;
            ofAddress = candidates.values().stream().mapToInt(Integer::intValue).max().orElse(0);
            victim = quietestOfAddressesHolding(candidates, ofAddress, silentOnly);
            forget(victim);
        }
        closedAtLimit.incrementAndGet();
        long quietSeconds = Duration.ofNanos(System.nanoTime() - victim.lastActiveNanos).toSeconds();
        AT_LIMIT.warn("closing connection from {}: {} connections open, more than max-connections ({}); it was the "
                + "one quiet longest ({} s) of an address holding the most ({}){}. Raise max-connections if these "
                + "are real clients", victim.connection.getPeerAddress(), count, maxConnections, quietSeconds,
                ofAddress, victim.spoke ? "" : " among the connections that never sent anything");
        victim.connection.closeSilently();
        return victim.connection == connection ? ctx.getStopAction() : ctx.getInvokeAction();
    }

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        Tracked tracked = open.get(ctx.getConnection());
        if (tracked != null) {
            tracked.lastActiveNanos = System.nanoTime();
            if (!tracked.spoke) {
                tracked.spoke = true;
            }
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

    /** How many connections that never sent a byte each source address holds. */
    private Map<InetAddress, Integer> silentPerAddress() {
        Map<InetAddress, Integer> silent = new HashMap<>();
        for (Tracked t : open.values()) {
            if (!t.spoke) {
                silent.merge(t.address, 1, Integer::sum);
            }
        }
        return silent;
    }

    /**
     * The connection whose last byte came longest ago (or that was opened longest ago, when silent) among those of
     * the addresses that {@code counts} gives {@code count} (any one among equals), only silent ones if
     * {@code silentOnly}.
     */
    private Tracked quietestOfAddressesHolding(Map<InetAddress, Integer> counts, int count, boolean silentOnly) {
        Tracked quietest = null;
        for (Tracked t : open.values()) {
            if ((!silentOnly || !t.spoke) && counts.getOrDefault(t.address, 0) == count
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
