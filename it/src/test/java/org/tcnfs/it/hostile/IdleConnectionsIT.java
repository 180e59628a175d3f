package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Connections opened and left idle were kept for ever, one file descriptor each: a host that opened as many as the
 * server process may hold (20,000 here, its limit on open files) kept every new client out (no reply, not even to
 * NULL) without a log line, and an export file could no longer be opened. Now at most {@code max-connections} are
 * open; past it the server closes the connection quiet longest of the addresses holding the most, so the attacker
 * loses its own connections while a client of another address gets in and keeps its connection.
 */
class IdleConnectionsIT extends AttackedServerTest {
    private static final int LIMIT = 64;
    private static final int ATTACK = 1000;

    @Override
    String[] serverOptions() {
        return new String[] {"--max-connections", Integer.toString(LIMIT)};
    }

    @Test
    void thousandsOfIdleConnectionsFromOneHostHoldAtMostMaxConnectionsAndKeepNoOtherClientOut() throws Exception {
        Hostile.Memory before = Hostile.memory(server);
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < ATTACK; i++) {
                Socket s = new Socket();
                s.bind(new InetSocketAddress("127.0.0.2", 0)); // another host than the normal client's 127.0.0.1
                s.connect(new InetSocketAddress(server.host(), server.port()), 5000);
                idle.add(s);
            }
            Hostile.sleep(1000);
            long sockets = socketsOf(server.pid());
            long during = normal.probeMillis(); // its own connection (made before the attack) and a fresh one
            long fresh = normal.freshClientMillis();
            int closed = 0;
            for (Socket s : idle) {
                closed += Hostile.closedByServerWithin(s, java.time.Duration.ofMillis(1)) ? 1 : 0;
            }
            Hostile.report(ATTACK + " idle connections from 127.0.0.2 with max-connections " + LIMIT + " (server "
                    + "sockets " + sockets + ", attacker's closed " + closed + ", fresh client " + fresh + " ms)",
                    before, Hostile.memory(server), during, normal.probeMillis());
            assertThat(sockets).as("sockets the server holds").isLessThanOrEqualTo(LIMIT + 8);
            // (a close the test has not yet seen within its 1 ms look is not counted)
            assertThat(closed).as("attacker's connections the server closed").isGreaterThan(ATTACK - 2 * LIMIT);
            assertThat(during).as("ms the normal client waited").isLessThan(Hostile.WEDGED_MILLIS);
            assertThat(fresh).as("ms a fresh client waited").isLessThan(Hostile.WEDGED_MILLIS);
            assertThat(server.metric("tcnfs_rpc_connections")).as("connections gauge").isLessThanOrEqualTo(LIMIT);
            assertThat(server.metric("tcnfs_rpc_connections_closed_at_limit_total")).as("closed at the limit")
                    .isGreaterThanOrEqualTo(ATTACK - LIMIT);
        } finally {
            idle.forEach(Hostile::closeQuietly);
        }
        String log = server.output();
        long lines = log.lines().filter(l -> l.contains("more than max-connections (" + LIMIT + ")")).count();
        assertThat(lines).as("log lines about the limit (rate-limited)").isBetween(1L, 10L);
        assertThat(log).doesNotContain("\tat ");
    }

    @Test
    void idleConnectionsSpreadOverManyAddressesCloseNoClientThatHasSpoken() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < ATTACK; i++) {
                // one connection per address (127/8 is all loopback): no address holds more than the client's
                Socket s = new Socket();
                s.bind(new InetSocketAddress("127.1." + (i / 250) + "." + (1 + i % 250), 0));
                s.connect(new InetSocketAddress(server.host(), server.port()), 5000);
                idle.add(s);
            }
            Hostile.sleep(1000);
            long during = normal.probeMillis(); // on the connection it made before the attack: throws if closed
            Hostile.report(ATTACK + " idle connections from " + ATTACK + " addresses with max-connections " + LIMIT,
                    Hostile.memory(server), Hostile.memory(server), during, normal.probeMillis());
            assertThat(during).as("ms the normal client waited").isLessThan(Hostile.WEDGED_MILLIS);
            assertThat(server.metric("tcnfs_rpc_connections_closed_at_limit_total")).as("closed at the limit")
                    .isGreaterThanOrEqualTo(ATTACK - LIMIT);
        } finally {
            idle.forEach(Hostile::closeQuietly);
        }
        assertThat(server.output()).contains("among the connections that never sent anything");
    }

    /** Sockets the process holds open (listening and connected), from /proc/PID/fd. */
    private static long socketsOf(long pid) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().startsWith("socket:");
                } catch (IOException e) {
                    return false; // closed meanwhile
                }
            }).count();
        }
    }
}
