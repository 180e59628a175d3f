package org.tcnfs.nfs4.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.rpc.NfsServerSchedulingTest.readRecord;
import static org.tcnfs.nfs4.rpc.NfsServerSchedulingTest.record;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;

/**
 * Through the wire (raw sockets, the real RPC stack): past {@code maxConnections} the server closes the connection
 * quiet longest among those of the addresses holding the most, so that a host hoarding connections loses its own
 * and another host's client keeps its connection.
 */
class ConnectionLimitTest {
    private static final int MAX = 3;
    private NfsServer server;
    private final List<Socket> sockets = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        InMemoryFileSystem fs = new InMemoryFileSystem();
        server = NfsServer.builder().fileSystems((credential, client) -> fs).bind("127.0.0.1", 0).workerThreads(2)
                .minorVersions(Set.of(0, 1)).maxConnections(MAX).build();
        server.start();
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        server.close();
    }

    /** A connection from {@code localAddress} (127.0.0.x: Linux routes all of 127/8 to the loopback). */
    private Socket connectFrom(String localAddress) throws IOException {
        Socket s = new Socket();
        sockets.add(s);
        s.bind(new InetSocketAddress(localAddress, 0));
        s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
        s.setSoTimeout(10_000);
        return s;
    }

    /** Whether a NULL call on {@code s} is answered. */
    private static boolean answersNull(Socket s, int xid) throws IOException {
        try {
            s.getOutputStream().write(record(xid, 0, new byte[0]));
            ByteBuffer reply = readRecord(s);
            return reply.getInt(0) == xid;
        } catch (IOException e) {
            if (e instanceof SocketTimeoutException) {
                throw e;
            }
            return false; // reset or end of stream: the server closed it
        }
    }

    /** Waits until the server has accepted (and counted) {@code n} connections. */
    private void awaitOpen(int n) throws InterruptedException {
        for (int i = 0; i < 500 && server.openConnections() < n; i++) {
            Thread.sleep(10);
        }
        assertThat(server.openConnections()).isEqualTo(n);
    }

    /** Waits until the server has closed {@code n} connections at the limit. */
    private void awaitClosedAtLimit(long n) throws InterruptedException {
        for (int i = 0; i < 500 && server.connectionsClosedAtLimit() < n; i++) {
            Thread.sleep(10);
        }
        assertThat(server.connectionsClosedAtLimit()).isEqualTo(n);
    }

    @Test
    void pastTheLimitTheQuietestConnectionOfTheAddressHoldingMostIsClosed() throws Exception {
        Socket client = connectFrom("127.0.0.1");
        assertThat(answersNull(client, 1)).isTrue();
        Socket hoarded1 = connectFrom("127.0.0.2");
        awaitOpen(2);
        Socket hoarded2 = connectFrom("127.0.0.2");
        awaitOpen(3);
        Thread.sleep(20);
        assertThat(answersNull(hoarded2, 2)).as("made the second of 127.0.0.2 the active one").isTrue();
        Socket hoarded3 = connectFrom("127.0.0.2");

        for (int i = 0; i < 500 && server.connectionsClosedAtLimit() == 0; i++) {
            Thread.sleep(10);
        }
        assertThat(server.connectionsClosedAtLimit()).isEqualTo(1);
        assertThat(server.openConnections()).isEqualTo(MAX);
        assertThat(hoarded1.getInputStream().read()).as("the quietest of 127.0.0.2, closed").isEqualTo(-1);
        assertThat(answersNull(client, 3)).as("the client of 127.0.0.1 keeps its connection").isTrue();
        assertThat(answersNull(hoarded2, 4)).isTrue();
        assertThat(answersNull(hoarded3, 5)).isTrue();
    }

    @Test
    void aClosedConnectionFreesItsPlaceForTheNextOne() throws Exception {
        List<Socket> first = new ArrayList<>();
        for (int i = 0; i < MAX; i++) {
            first.add(connectFrom("127.0.0.1"));
            awaitOpen(i + 1);
        }
        first.get(0).close();
        for (int i = 0; i < 500 && server.openConnections() > MAX - 1; i++) {
            Thread.sleep(10);
        }
        Socket next = connectFrom("127.0.0.1");
        awaitOpen(MAX);
        assertThat(answersNull(next, 1)).isTrue();
        assertThat(answersNull(first.get(1), 2)).isTrue();
        assertThat(server.connectionsClosedAtLimit()).isZero();
    }

    @Test
    void silentConnectionsFromManyAddressesNeverPushOutAnIdleClientThatHasSpoken() throws Exception {
        Socket client = connectFrom("127.0.0.1");
        assertThat(answersNull(client, 1)).isTrue();
        awaitOpen(1);
        Thread.sleep(20); // the client is now the quietest connection of all
        List<Socket> silent = new ArrayList<>();
        for (int i = 0; i < 4 * MAX; i++) {
            silent.add(connectFrom("127.0.1." + (i + 1))); // one connection per address, none sends a byte
            if (i + 2 <= MAX) {
                awaitOpen(i + 2);
            } else {
                awaitClosedAtLimit(i + 2 - MAX); // one at a time: each close is of the connections open then
            }
        }

        assertThat(server.connectionsClosedAtLimit()).isEqualTo(4 * MAX + 1 - MAX);
        assertThat(answersNull(client, 2)).as("the client that spoke keeps its connection").isTrue();
        assertThat(silent.get(0).getInputStream().read()).as("the oldest silent connection, closed").isEqualTo(-1);
        assertThat(answersNull(silent.get(silent.size() - 1), 3)).as("the newest silent one is kept").isTrue();
    }
}
