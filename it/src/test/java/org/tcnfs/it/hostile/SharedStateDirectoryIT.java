package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.it.ServerProcess;

/**
 * Issue 14, item 7: a state directory belongs to one server. A second server, or {@code --check}, on the state
 * of a running server is refused with one line naming the holder, and changes nothing (no recovery, no
 * orphan-backup cleanup); {@code --check} creates no directories.
 */
class SharedStateDirectoryIT {
    private static final long EXIT_TIMEOUT_S = 30;
    private ServerProcess server;
    private Path orphan;

    @BeforeEach
    void start() throws IOException {
        server = ServerProcess.start();
        // A backup directory no recovery record refers to: recovery at a start would delete it.
        orphan = server.exportDir().resolve(".tcnfs").resolve("txn").resolve("424242");
        Files.createDirectories(orphan);
        Files.writeString(orphan.resolve("kept"), "an orphan backup a second server must not clean up");
    }

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    /** The exit status and output of a run of the server jar that is expected to end by itself. */
    private record Run(int status, String output) {
    }

    private static Run runJar(Path workDir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-jar");
        command.add(ServerProcess.serverJar().toString());
        command.addAll(List.of(args));
        Path log = Files.createTempFile(workDir, "run-", ".log");
        Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        boolean ended = p.waitFor(EXIT_TIMEOUT_S, TimeUnit.SECONDS);
        if (!ended) {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        return new Run(ended ? p.exitValue() : -1, output);
    }

    private Path base() {
        return server.stateDir().getParent();
    }

    private void assertStillServes() throws IOException {
        assertThat(server.isAlive()).isTrue();
        try (NfsConnection connection = server.connect();
                Nfs41Session session = Nfs41Session.create(connection, "after-intruder")) {
            assertThat(session.execute(new CompoundBuilder().putrootfh().getfh()).orThrow().fileHandle()).isNotEmpty();
        }
    }

    @Test
    void aSecondServerOnALiveServersStateIsRefusedWithOneLineNamingTheHolder() throws Exception {
        Run second = runJar(base(), "--bind", "127.0.0.1", "--port", "0", "--metrics-port", "off", "--grace", "0",
                "--data", server.exportDir().toString(), "--state", server.stateDir().toString());

        assertThat(second.status()).as("the second server exits by itself, status 1\n%s", second.output())
                .isEqualTo(1);
        List<String> errors = second.output().lines().filter(l -> l.contains("ERROR")).toList();
        assertThat(errors).as(second.output()).hasSize(1);
        assertThat(errors.get(0)).contains("is in use by tcnfs pid " + server.pid() + " on host ")
                .contains(server.stateDir().getFileName().toString());
        assertThat(second.output()).doesNotContain("recovery:").doesNotContain("Exception");
        assertThat(orphan.resolve("kept")).exists();
        assertStillServes();
    }

    @Test
    void checkRefusesALiveServersStateAndChangesNothing() throws Exception {
        Run check = runJar(base(), "--data", server.exportDir().toString(), "--state", server.stateDir().toString(),
                "--check");

        assertThat(check.status()).as(check.output()).isEqualTo(4);
        assertThat(check.output().strip()).as("one line").doesNotContain("\n")
                .contains("is in use by tcnfs pid " + server.pid());
        assertThat(orphan.resolve("kept")).exists();
        assertStillServes();
    }

    @Test
    void checkOfAStoppedServersStateReportsWithoutChangingAnything() throws Exception {
        server.stop();

        Run check = runJar(base(), "--data", server.exportDir().toString(), "--state", server.stateDir().toString(),
                "--check");

        assertThat(check.status()).as(check.output()).isEqualTo(3);
        assertThat(check.output()).contains("1 orphan backup directory").contains("424242");
        assertThat(orphan.resolve("kept")).exists();
    }

    @Test
    void checkCreatesNoDirectories() throws Exception {
        Path data = base().resolve("no-such-data");
        Path state = base().resolve("no-such-state");

        Run check = runJar(base(), "--data", data.toString(), "--state", state.toString(), "--check");

        assertThat(check.status()).as(check.output()).isZero();
        assertThat(data).doesNotExist();
        assertThat(state).doesNotExist();
    }
}
