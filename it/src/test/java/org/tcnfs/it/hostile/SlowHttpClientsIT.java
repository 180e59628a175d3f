package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tcnfs.it.ServerProcess;

/**
 * Issue 14, item 5: slow or idle HTTP connections on the metrics port (half-sent requests, connections that
 * send nothing) do not starve {@code /health}, {@code /status} and {@code /metrics}, and the server closes
 * them after its read timeout. A container health check must never see a healthy server as dead.
 *
 * <p>Each test prints the latencies of {@code /health} it measured while the attack ran.
 */
class SlowHttpClientsIT {
    /** The median probe's latency at most (a quiet machine answers in a few ms). */
    private static final int PROBE_LIMIT_MS = 1000;
    /** Any probe's latency at most: beyond it the endpoint counts as blocked (a loaded machine stalls for ~1 s). */
    private static final int PROBE_HANG_MS = 4000;
    private static ServerProcess server;
    private final List<Socket> attackers = new ArrayList<>();

    @BeforeAll
    static void startServer() throws IOException {
        server = ServerProcess.start(List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError"));
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void closeAttackers() {
        for (Socket s : attackers) {
            try {
                s.close();
            } catch (IOException e) {
                // already closed
            }
        }
        attackers.clear();
    }

    /** Opens a connection that sends the start of a request and then nothing more. */
    private Socket halfSentRequest() throws IOException {
        Socket s = connect();
        OutputStream out = s.getOutputStream();
        out.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return s;
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", server.metricsPort()), 2000);
        attackers.add(s);
        return s;
    }

    /** One complete request on a connection of its own; the status line and the time it took, or a timeout. */
    private static Probe probe(String path) throws IOException {
        long start = System.nanoTime();
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", server.metricsPort()), 5000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String status = statusLine(s.getInputStream());
            return new Probe(status, (System.nanoTime() - start) / 1_000_000);
        } catch (SocketTimeoutException e) {
            return new Probe("timeout", (System.nanoTime() - start) / 1_000_000);
        }
    }

    private static String statusLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
            line.append((char) c);
        }
        return line.toString().trim();
    }

    private record Probe(String status, long millis) {
    }

    /** Probes the three endpoints {@code rounds} times; returns the /health latencies, asserting each answered fast. */
    private static long[] probeDuringAttack(String attack, int rounds) throws Exception {
        long[] health = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            Probe h = probe("/health");
            health[i] = h.millis();
            assertThat(h.status()).as("/health during %s, round %d (%d ms)\n%s", attack, i, h.millis(),
                    server.output()).isEqualTo("HTTP/1.1 200 OK");
            assertThat(h.millis()).as("/health latency during %s", attack).isLessThan(PROBE_HANG_MS);
            for (String path : List.of("/status", "/metrics")) {
                Probe p = probe(path);
                assertThat(p.status()).as("%s during %s (%d ms)", path, attack, p.millis()).isEqualTo("HTTP/1.1 200 OK");
                assertThat(p.millis()).as("%s latency during %s", path, attack).isLessThan(PROBE_HANG_MS);
            }
            Thread.sleep(100);
        }
        long[] sorted = health.clone();
        Arrays.sort(sorted);
        System.out.printf("SlowHttpClientsIT: /health during %s: median %d ms, max %d ms over %d probes%n", attack,
                sorted[rounds / 2], sorted[rounds - 1], rounds);
        assertThat(sorted[rounds / 2]).as("median /health latency during %s", attack).isLessThan(PROBE_LIMIT_MS);
        return health;
    }

    @Test
    void healthAnswersWhileTwoRequestsAreHalfSent() throws Exception {
        halfSentRequest();
        halfSentRequest();
        Thread.sleep(200);
        probeDuringAttack("2 half-sent requests", 10);
    }

    @Test
    void healthAnswersWhileTwentyRequestsAreHalfSentAndTwentyConnectionsSendNothing() throws Exception {
        for (int i = 0; i < 20; i++) {
            halfSentRequest();
            connect();
        }
        Thread.sleep(200);
        probeDuringAttack("20 half-sent requests and 20 silent connections", 10);
    }

    @Test
    void aHalfSentRequestIsClosedAfterTheReadTimeout() throws Exception {
        Socket slow = halfSentRequest();
        slow.setSoTimeout(30_000);
        long start = System.nanoTime();
        InputStream in = slow.getInputStream();
        // The server answers 408 or just closes; either way the connection ends well before 30 s.
        while (in.read() != -1) {
            // drain whatever the server says before it closes
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("SlowHttpClientsIT: half-sent request closed by the server after %d ms%n", millis);
        assertThat(millis).isLessThan(20_000);
        assertThat(probe("/health").status()).isEqualTo("HTTP/1.1 200 OK");
    }
}
