package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Many clients that pipeline READs and never read the replies: each connection's queue is bounded (2 MiB,
 * {@link UnreadRepliesIT}), and so is their sum (rpc-reply-budget, here 8 MiB): past it the server takes no
 * connection's next request until replies drain, and closes the connections whose replies do not move for
 * rpc-idle-timeout (here 1 s), so that the normal client is served again. Without the global bound 96
 * connections queue 2 MiB and more each: some 200 MiB against a 256 MiB heap.
 */
class GlobalReplyBudgetIT extends AttackedServerTest {
    private static final int CONNECTIONS = 96;
    private static final long BUDGET = 8L << 20;

    @Override
    String[] serverOptions() {
        return new String[] {"--rpc-reply-budget", System.getProperty("tcnfs.it.reply.budget", "8MiB"),
            "--rpc-idle-timeout", "1s"};
    }

    @Override
    void prepareExport(Path exportDir) throws IOException {
        Files.write(exportDir.resolve("big"), new byte[1 << 20]);
    }

    @Test
    void manyConnectionsThatNeverReadTheirRepliesHoldAtMostTheGlobalReplyBudget() throws IOException {
        byte[] fh = normal.lookup("big");
        Hostile.Memory before = Hostile.memory(server);
        double mostUnsent = 0;
        long worst;
        Hostile.Memory during;
        // 96 x 200 READs of 1 MiB, none of the replies read
        try (Attacks.UnreadReplies attack = Attacks.UnreadReplies.start(server, fh, CONNECTIONS, 200)) {
            long end = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (System.nanoTime() < end) {
                mostUnsent = Math.max(mostUnsent, server.metric("tcnfs_rpc_replies_unsent_bytes"));
                Hostile.sleep(50);
            }
            during = Hostile.memory(server);
            worst = normal.worstMillis(Duration.ofSeconds(4));
            assertThat(server.isAlive()).as("server alive\n%s", server.output()).isTrue();
            int closed = 0;
            for (Socket s : attack.sockets) {
                if (Hostile.closedByServerWithin(s, Duration.ofMillis(50))) {
                    closed++;
                }
            }
            System.out.printf("HOSTILE %d of %d connections that never read were closed; most unsent reply bytes "
                    + "seen %.0f%n", closed, CONNECTIONS, mostUnsent);
            assertThat(closed).as("connections closed for stalled replies").isPositive();
        }
        Hostile.sleep(200);
        long after = normal.probeMillis();
        Hostile.report(CONNECTIONS + " connections pipelining 200 READs of 1 MiB each without reading a reply, "
                + "rpc-reply-budget 8 MiB", before, during, worst, after);
        assertThat(server.metric("tcnfs_rpc_connections_stalled_closed")).isPositive();
        // the budget, plus the replies of the requests already taken (workers and their queue: 1 MiB each)
        assertThat(mostUnsent).as("most unsent reply bytes").isLessThan(BUDGET + (24L << 20));
        assertThat(during.liveHeapMiB()).as("live heap during the attack (MiB)").isLessThan(120);
        assertThat(worst).as("worst probe during the attack (ms)").isLessThan(Hostile.WEDGED_MILLIS);
        assertThat(after).as("probe after the attack (ms)").isLessThan(1000);
    }
}
