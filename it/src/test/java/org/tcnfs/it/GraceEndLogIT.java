package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;

/**
 * The end of the grace period (RFC 8881 8.4.2) is logged once at INFO (issue 17), when it comes, even if no
 * request asks: an operator sees when clients may take new opens and locks again.
 */
class GraceEndLogIT {
    private static final byte[] OWNER = "grace-end-log-it".getBytes(StandardCharsets.UTF_8);

    /** Waits (at most 20 s) for the grace-end line, then a little longer in case a second one comes. */
    private static String awaitGraceOver(ServerProcess server) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!server.outputOfLastStart().contains("grace period over") && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        Thread.sleep(1500); // a second line would come with the reaper's next round
        return server.outputOfLastStart();
    }

    private static String verifier(int n) {
        return "verifie" + n;
    }

    @Test
    void theEndOfTheGracePeriodIsLoggedWhenTheLastRecordedClientHasReclaimed() throws IOException,
            InterruptedException {
        try (ServerProcess server = ServerProcess.start("--grace", "60s")) {
            try (NfsConnection connection = server.connect()) {
                Nfs41Session.create(connection, OWNER, verifier(1).getBytes(StandardCharsets.US_ASCII));
            }
            server.restart();
            try (NfsConnection connection = server.connect()) {
                // the same client after its reboot: it has nothing to reclaim and says so (RECLAIM_COMPLETE)
                Nfs41Session.create(connection, OWNER, verifier(2).getBytes(StandardCharsets.US_ASCII));

                String out = awaitGraceOver(server);

                assertThat(out).contains("grace period of up to 60 s for 1 recorded client(s)");
                assertThat(out.lines().filter(l -> l.contains("grace period over"))).singleElement().asString()
                        .contains("INFO").contains("(all 1 recorded client(s) finished reclaiming)");
            }
        }
    }

    @Test
    void theEndOfTheGracePeriodIsLoggedOnceWhenItsTimeRunsOut() throws IOException, InterruptedException {
        try (ServerProcess server = ServerProcess.start("--grace", "2s")) {
            try (NfsConnection connection = server.connect()) {
                // confirmed and never destroyed: the client record lists it, so the next start has a grace period
                Nfs41Session.create(connection, "grace-it");
            }
            server.restart();

            String out = awaitGraceOver(server);

            assertThat(out).contains("grace period of up to 2 s for 1 recorded client(s)");
            assertThat(out.lines().filter(l -> l.contains("grace period over"))).singleElement().asString()
                    .contains("INFO")
                    .contains("grace period over after 2 s (its time ran out, 1 of 1 recorded client(s) did not "
                            + "reclaim): clients may now take new opens and locks");
        }
    }
}
