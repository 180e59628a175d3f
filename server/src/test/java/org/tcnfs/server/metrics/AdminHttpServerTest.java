package org.tcnfs.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AdminHttpServerTest {
    private final HttpClient client = HttpClient.newHttpClient();
    private final AtomicBoolean serving = new AtomicBoolean(true);
    private TcnfsMetrics metrics;
    private AdminHttpServer http;

    @BeforeEach
    void start() throws IOException {
        metrics = TcnfsMetrics.create();
        metrics.counter("tcnfs.compounds", "COMPOUNDs", "status", "NFS4_OK").increment(3);
        ServerStatus status = new ServerStatus("1.2.3", Instant.parse("2026-01-02T03:04:05Z"), Duration.ofSeconds(61),
                "127.0.0.1", 2049, List.of(new ServerStatus.ExportStatus("/", "/srv/data", List.of("*(rw)"))), 2, 3,
                false, OptionalLong.of(8192), 1);
        http = AdminHttpServer.start("127.0.0.1", 0, metrics, serving::get, () -> status);
    }

    @AfterEach
    void stop() {
        http.close();
        metrics.close();
    }

    private HttpResponse<String> send(String method, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(10))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void metricsAreThePrometheusTextFormat() throws Exception {
        HttpResponse<String> r = send("GET", "/metrics");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(r.body()).contains("# TYPE tcnfs_compounds_total counter")
                .contains("tcnfs_compounds_total{status=\"NFS4_OK\"} 3");
    }

    @Test
    void healthIsOkWhileServingAnd503Otherwise() throws Exception {
        HttpResponse<String> ok = send("GET", "/health");
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("ok\n");

        serving.set(false);

        HttpResponse<String> stopping = send("GET", "/health");
        assertThat(stopping.statusCode()).isEqualTo(503);
        assertThat(stopping.body()).isEqualTo("stopping\n");
    }

    @Test
    void statusIsJson() throws Exception {
        HttpResponse<String> r = send("GET", "/status");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(r.body()).isEqualTo("{\"version\":\"1.2.3\",\"started\":\"2026-01-02T03:04:05Z\","
                + "\"uptime_seconds\":61,"
                + "\"bind\":\"127.0.0.1\",\"nfs_port\":2049,\"exports\":[{\"path\":\"/\",\"directory\":\"/srv/data\","
                + "\"rules\":[\"*(rw)\"]}],\"clients\":2,\"sessions\":3,\"in_grace\":false,\"pending_recovery_records\":1,"
                + "\"handle_table_bytes\":8192}\n");
    }

    @Test
    void headAnswersWithoutABody() throws Exception {
        HttpResponse<String> r = send("HEAD", "/health");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEmpty();
    }

    @Test
    void otherPathsAre404AndOtherMethods405() throws Exception {
        assertThat(send("GET", "/").statusCode()).isEqualTo(404);
        assertThat(send("GET", "/metrics/x").statusCode()).isEqualTo(404);
        assertThat(send("GET", "/healthz").statusCode()).isEqualTo(404);
        HttpResponse<String> post = send("POST", "/metrics");
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
    }

    @Test
    void aFailingStatusIsA500AndTheServerGoesOn() throws Exception {
        http.close();
        http = AdminHttpServer.start("127.0.0.1", 0, metrics, serving::get, () -> {
            throw new IllegalStateException("the server is CLOSED");
        });

        HttpResponse<String> r = send("GET", "/status");

        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(r.body()).contains("the server is CLOSED");
        assertThat(send("GET", "/health").statusCode()).isEqualTo(200);
    }

    @Test
    void halfSentRequestsAndSilentConnectionsDoNotHoldUpHealth() throws Exception {
        List<Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 3 * AdminHttpServer.MAX_THREADS; i++) {
                Socket half = new Socket("127.0.0.1", http.port());
                OutputStream out = half.getOutputStream();
                out.write("GET /health HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                slow.add(half);
                slow.add(new Socket("127.0.0.1", http.port()));
            }
            for (int i = 0; i < 5; i++) {
                long start = System.nanoTime();
                HttpResponse<String> r = send("GET", "/health");
                long millis = (System.nanoTime() - start) / 1_000_000;
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(millis).isLessThan(1000);
            }
        } finally {
            for (Socket s : slow) {
                s.close();
            }
        }
    }

    @Test
    void oversizedHeadersAreRefusedAndTheServerGoesOn() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/health"))
                .header("X-Big", "x".repeat(AdminHttpServer.MAX_HEADER_BYTES + 1))
                .timeout(Duration.ofSeconds(10))
                .build();

        assertThat(client.send(request, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(431);
        assertThat(send("GET", "/health").statusCode()).isEqualTo(200);
    }
}
