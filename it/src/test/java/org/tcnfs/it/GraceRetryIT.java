package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.it.CliRunner.Run;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;

/**
 * After a restart the server is in its grace period (RFC 8881 8.4.2) while a client of the previous run may still
 * reclaim: OPENs that are not reclaims get NFS4ERR_GRACE, reads, writes and transactions alike. The {@code tcnfs}
 * command (the real fat jar) waits with growing pauses and succeeds once the grace period ends, instead of
 * failing at once (issue 17).
 */
class GraceRetryIT {
    private static final int GRACE_SECONDS = 20;

    private ServerProcess server;

    @TempDir
    Path tmp;

    @BeforeEach
    void start() throws IOException {
        server = ServerProcess.start("--grace", GRACE_SECONDS + "s");
    }

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theCliWaitsOutTheGracePeriodAfterARestartAndThenReadsWritesAndCommits() throws Exception {
        Files.writeString(server.exportDir().resolve("before"), "written before the restart\n");
        // a client with a session is in the client record, so the next start grants a grace period for it
        ItSession previous = ItSession.open(server, "previous-run");
        server.restart();
        try (ItSession probe = ItSession.open(server, "probe")) {
            NfsStatus inGrace = probe.nfs().run(new CompoundBuilder().putrootfh().openExisting(
                    probe.session().clientId(), probe.nfs().openOwner(), "before",
                    OPEN4args.OPEN4_SHARE_ACCESS_READ)).status();
            assertThat(inGrace).as("the restarted server is in its grace period").isEqualTo(NfsStatus.GRACE);
        }
        Files.writeString(tmp.resolve("put-me"), "written during the grace period\n");
        String base = "nfs://127.0.0.1:" + server.port() + "/";

        long start = System.nanoTime();
        CompletableFuture<Run> get = CompletableFuture.supplyAsync(() -> run("get", base + "before", "got"));
        CompletableFuture<Run> put = CompletableFuture.supplyAsync(() -> run("put", "put-me", base + "put"));
        CompletableFuture<Run> txn = CompletableFuture.supplyAsync(() -> run("put", "--txn", "put-me", base + "txn"));
        Run read = get.join();
        Run write = put.join();
        Run transaction = txn.join();
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        System.out.printf("GraceRetryIT: get, put and put --txn succeeded %d s after they started in a %d s grace period%n",
                seconds, GRACE_SECONDS);

        assertThat(read.status()).as(read.err()).isZero();
        assertThat(write.status()).as(write.err()).isZero();
        assertThat(transaction.status()).as(transaction.err()).isZero();
        assertThat(Files.readString(server.exportDir().resolve("txn"))).isEqualTo("written during the grace period\n");
        assertThat(Files.readString(tmp.resolve("got"))).isEqualTo("written before the restart\n");
        assertThat(Files.readString(server.exportDir().resolve("put"))).isEqualTo("written during the grace period\n");
        assertThat(seconds).as("the commands waited for the grace period to end").isGreaterThanOrEqualTo(2);
        previous.connection().close();
    }

    private Run run(String... args) {
        try {
            return CliRunner.jar(tmp, args);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
