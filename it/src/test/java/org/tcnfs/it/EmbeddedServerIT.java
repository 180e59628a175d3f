package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.server.TcnfsServer;
import org.tcnfs.server.config.InvalidConfigException;

/**
 * The server embedded in this JVM through {@link TcnfsServer#builder()} (README, "Embedding"), with the
 * Maven artifacts a consumer gets (tcnfs-server and its dependencies, not the fat jar), serving the Java
 * client.
 */
class EmbeddedServerIT {
    @TempDir
    Path dir;

    private TcnfsServer.Builder builder(String name) {
        return TcnfsServer.builder()
                .exportRoot(dir.resolve(name).resolve("export"))
                .stateDirectory(dir.resolve(name).resolve("state"))
                // The tests act as root in a directory the test process owns.
                .exportOptions("rw,no_root_squash")
                .bind("127.0.0.1", 0)
                .grace(Duration.ZERO);
    }

    @Test
    void embeddedServerServesTheJavaClient() throws IOException {
        byte[] content = "written through the embedded server\n".getBytes(StandardCharsets.UTF_8);
        try (TcnfsServer server = builder("a").build().start();
                NfsConnection connection = NfsConnection.connect("127.0.0.1", server.port());
                Nfs41Session session = Nfs41Session.create(connection, "embedded")) {
            NfsOps nfs = new NfsOps(session);
            byte[] docs = nfs.mkdir(nfs.rootFh(), "docs");
            byte[] fh = nfs.createFile(docs, "hello.txt", content);

            assertThat(nfs.read(fh)).isEqualTo(content);
            assertThat(Files.readAllBytes(dir.resolve("a/export/docs/hello.txt"))).as("the file on the local disk")
                    .isEqualTo(content);
            assertThat(server.status().sessions()).isEqualTo(1);
            assertThat(server.metrics().scrape()).contains("tcnfs_ops_total{op=\"WRITE\",status=\"NFS4_OK\"} 1");
        }
    }

    @Test
    void twoEmbeddedServersRunSideBySide() throws Exception {
        try (TcnfsServer a = builder("a").metricsPort(0).build().start();
                TcnfsServer b = builder("b").metricsPort(0).build().start()) {
            assertThat(a.port()).isNotEqualTo(b.port());
            HttpClient http = HttpClient.newHttpClient();
            for (TcnfsServer s : new TcnfsServer[] {a, b}) {
                HttpResponse<String> health = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + s.metricsPort().orElseThrow() + "/health")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(health.statusCode()).isEqualTo(200);
            }
            try (NfsConnection connection = NfsConnection.connect("127.0.0.1", a.port());
                    Nfs41Session session = Nfs41Session.create(connection, "a")) {
                new NfsOps(session).mkdir(new NfsOps(session).rootFh(), "only-in-a");
            }
            assertThat(dir.resolve("a/export/only-in-a")).isDirectory();
            assertThat(dir.resolve("b/export/only-in-a")).doesNotExist();
        }
    }

    @Test
    void closedServerRefusesClients() throws IOException {
        TcnfsServer server = builder("a").build().start();
        int port = server.port();
        server.close();

        assertThatThrownBy(() -> NfsConnection.connect("127.0.0.1", port).close()).isInstanceOf(IOException.class);
    }

    @Test
    void invalidSettingIsRefusedByName() {
        assertThatThrownBy(() -> builder("a").maxIoBytes(1).build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("'max-io'");
    }
}
