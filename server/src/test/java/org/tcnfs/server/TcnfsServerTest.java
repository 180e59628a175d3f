package org.tcnfs.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.server.config.InvalidConfigException;

/** The embedding API: start and stop a server in-process (serving a client is shown in the it module). */
class TcnfsServerTest {
    @TempDir
    Path dir;

    private TcnfsServer.Builder builder() {
        return TcnfsServer.builder()
                .exportRoot(dir.resolve("export"))
                .stateDirectory(dir.resolve("state"))
                .bind("127.0.0.1", 0)
                .grace(Duration.ZERO);
    }

    private static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void builtServerListensUntilClosed() throws IOException {
        int port;
        try (TcnfsServer server = builder().build().start()) {
            port = server.port();
            assertThat(port).isPositive();
            assertThat(server.metricsPort()).as("HTTP is off unless asked for").isEmpty();
            assertThat(Files.isDirectory(dir.resolve("export"))).isTrue();
            assertThat(Files.isDirectory(dir.resolve("state"))).isTrue();
            try (Socket s = new Socket("127.0.0.1", port)) {
                assertThat(s.isConnected()).isTrue();
            }
            assertThat(server.metrics().scrape()).contains("tcnfs_sessions 0");
        }
        assertThat(refusesConnections(port)).as("port %d refuses connections after close()", port).isTrue();
    }

    /** Whether connecting to {@code port} is refused within 10 s (the RPC service stops asynchronously). */
    private static boolean refusesConnections(int port) throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                new Socket("127.0.0.1", port).close();
                Thread.sleep(50);
            } catch (ConnectException e) {
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    @Test
    void httpEndpointsServeHealthStatusAndMetrics() throws Exception {
        try (TcnfsServer server = builder().metricsPort(0).build().start()) {
            int http = server.metricsPort().orElseThrow();

            HttpResponse<String> health = get(http, "/health");
            HttpResponse<String> status = get(http, "/status");
            HttpResponse<String> metrics = get(http, "/metrics");

            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).isEqualTo("ok\n");
            assertThat(status.statusCode()).isEqualTo(200);
            assertThat(status.body()).contains("\"nfs_port\":" + server.port())
                    .contains("\"exports\":[{\"path\":\"/\",\"directory\":\""
                            + dir.resolve("export").toAbsolutePath().normalize() + "\","
                            + "\"rules\":[\"*(rw,root_squash,anonuid=65534,anongid=65534,sec=sys,txn=request)\"]}]")
                    .contains("\"clients\":0", "\"sessions\":0", "\"in_grace\":false", "\"handle_table_bytes\":");
            assertThat(metrics.headers().firstValue("Content-Type"))
                    .hasValue("text/plain; version=0.0.4; charset=utf-8");
            assertThat(metrics.body()).contains("tcnfs_clients 0", "tcnfs_exports 1", "tcnfs_grace_active 0",
                    "tcnfs_handle_table_size_bytes ", "tcnfs_rpc_buffered_bytes ", "tcnfs_rpc_connections_paused 0",
                    "tcnfs_rpc_requests_parked 0");
        }
    }

    @Test
    void httpPortClosesWithTheServer() throws Exception {
        int http;
        try (TcnfsServer server = builder().metricsPort(0).build().start()) {
            http = server.metricsPort().orElseThrow();
        }
        assertThat(refusesConnections(http)).isTrue();
    }

    @Test
    void handleTableSizeIsTheLmdbFileSize() throws IOException {
        try (TcnfsServer server = builder().build().start()) {
            List<Path> lmdbFiles;
            try (Stream<Path> files = Files.walk(dir.resolve("state").resolve("handles"))) {
                lmdbFiles = files.filter(p -> p.getFileName().toString().equals("data.mdb")).toList();
            }
            assertThat(lmdbFiles).as("the handle table's LMDB data file").hasSize(1);
            long expected = Files.size(lmdbFiles.get(0));
            assertThat(expected).isPositive();
            assertThat(server.status().handleTableBytes()).hasValue(expected);
        }
    }

    @Test
    void badValueIsRefusedNamingTheSettingAndTheBuilderMethod() {
        assertThatThrownBy(() -> builder().maxOps(3).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("'max-ops'")
                .hasMessageContaining("TcnfsServer.Builder.maxOps");
        assertThatThrownBy(() -> builder().lease(Duration.ofSeconds(-1)).build())
                .hasMessageContaining("'lease'");
    }

    @Test
    void busyMetricsPortFailsTheStartAndReleasesTheNfsPort() throws IOException {
        try (ServerSocket busy = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            TcnfsServer server = builder().metricsPort(busy.getLocalPort()).build();
            assertThatThrownBy(server::start).isInstanceOf(IOException.class);
            assertThatThrownBy(server::port).isInstanceOf(IllegalStateException.class);
        }
        // The state (LMDB) was closed: a new server opens it again.
        try (TcnfsServer again = builder().build().start()) {
            assertThat(again.port()).isPositive();
        }
    }

    @Test
    void aServerStartsOnce() throws IOException {
        TcnfsServer server = builder().build().start();
        server.close();
        server.close();
        assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aSecondServerOnTheSameStateIsRefusedAndTheFirstGoesOn() throws IOException {
        try (TcnfsServer first = builder().build().start()) {
            TcnfsServer second = builder().exportRoot(dir.resolve("other-export")).build();
            assertThatThrownBy(second::start)
                    .isInstanceOf(StateLock.InUseException.class)
                    .hasMessageContaining("pid " + ProcessHandle.current().pid());
            assertThat(dir.resolve("other-export")).doesNotExist();
            assertThatThrownBy(() -> TcnfsServer.check(first.config())).isInstanceOf(StateLock.InUseException.class);
            try (Socket s = new Socket("127.0.0.1", first.port())) {
                assertThat(s.isConnected()).isTrue();
            }
        }
        // Released at close: the same state serves again.
        try (TcnfsServer again = builder().build().start()) {
            assertThat(again.port()).isPositive();
        }
    }

    @Test
    void checkCreatesNothing() throws IOException {
        TcnfsServer server = builder().build();

        assertThat(TcnfsServer.check(server.config()).pending()).isEmpty();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
        Files.createDirectories(dir.resolve("state"));
        assertThat(TcnfsServer.check(server.config()).pending()).isEmpty();
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files).containsExactlyInAnyOrder(dir, dir.resolve("state"));
        }
    }

    @Test
    void reloadExportsServesTheNewFileAndReportsWhatChanged() throws IOException {
        Path a = Files.createDirectories(dir.resolve("a"));
        Path b = Files.createDirectories(dir.resolve("b"));
        Path exports = dir.resolve("exports");
        Files.writeString(exports, a + " *(rw)\n");
        try (TcnfsServer server = builder().exportsFile(exports).build().start()) {
            Files.writeString(exports, a + " *(ro)\n" + b + " *(ro)\n");
            ExportsReload added = server.reloadExports();
            Files.writeString(exports, b + " *(ro)\n" + dir.resolve("missing") + " *(rw)\n");
            ExportsReload bad = server.reloadExports();
            List<String> afterBad = server.status().exports().stream().map(e -> e.path()).toList();
            Files.writeString(exports, b + " *(ro,txn=always)\n");
            ExportsReload removed = server.reloadExports();

            assertThat(added.applied()).isTrue();
            assertThat(added.added()).containsExactly(b.toString());
            assertThat(added.changed()).containsExactly(a.toString());
            assertThat(added.removed()).isEmpty();
            assertThat(bad.applied()).isFalse();
            assertThat(bad.rejected().orElseThrow()).startsWith(exports + ": line 2: " + dir.resolve("missing"))
                    .endsWith("no such file or directory");
            assertThat(afterBad).containsExactly(a.toString(), b.toString());
            assertThat(removed.removed()).containsExactly(a.toString());
            assertThat(removed.changed()).containsExactly(b.toString());
            assertThat(server.status().exports()).singleElement().satisfies(e -> assertThat(e.rules())
                    .containsExactly("*(ro,root_squash,anonuid=65534,anongid=65534,sec=sys,txn=always)"));
            assertThat(server.metrics().scrape()).contains("tcnfs_exports 1");
            assertThat(b.resolve(".tcnfs")).as("read-only from the start: no backup area").doesNotExist();
        }
    }

    @Test
    void reloadExportsWithoutAnExportsFileChangesNothing() throws IOException {
        try (TcnfsServer server = builder().build().start()) {
            ExportsReload reload = server.reloadExports();

            assertThat(reload.applied()).isFalse();
            assertThat(reload.rejected().orElseThrow()).contains("no exports file");
            assertThat(server.status().exports()).singleElement().satisfies(e -> assertThat(e.path()).isEqualTo("/"));
        }
    }
}
