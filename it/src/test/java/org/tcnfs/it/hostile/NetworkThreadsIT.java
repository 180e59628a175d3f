package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, item 6: when the worker queue was full the network thread ran the next request itself (so a
 * NULL ping waited behind it), and every undecodable request wrote a WARN line (4 MiB of log in 0.3 s).
 * Requests now run only on worker threads, and the lines are rate-limited with a count of those left out.
 */
class NetworkThreadsIT extends AttackedServerTest {
    @Test
    void aFloodOfUndecodableRequestsRunsOnWorkersAndLogsAFewLines() throws Exception {
        Hostile.Memory before = Hostile.memory(server);
        int perConnection = 5000;
        long worst;
        try (Attacks.RepliedFlood flood = Attacks.undecodableFlood(server, 4, perConnection)) {
            worst = normal.worstMillis(Duration.ofSeconds(2));
            flood.await(Duration.ofSeconds(60));
            assertThat(flood.answered.get()).as("GARBAGE_ARGS replies").isEqualTo(4 * perConnection);
        }
        Hostile.Memory during = Hostile.memory(server);
        long after = normal.probeMillis();
        Hostile.report("20000 undecodable COMPOUNDs pipelined on 4 connections", before, during, worst, after);
        List<String> lines = server.output().lines().filter(l -> l.contains("undecodable COMPOUND")).toList();
        assertThat(lines).as("log lines of undecodable COMPOUNDs").isNotEmpty().hasSizeLessThanOrEqualTo(20);
        assertThat(lines).as("requests run on worker threads only")
                .allSatisfy(l -> assertThat(l).contains("-request-").doesNotContain("SelectorRunner"));
        assertThat(worst).as("worst probe during the attack (ms)").isLessThan(Hostile.WEDGED_MILLIS);
        assertThat(after).as("probe after the attack (ms)").isLessThan(1000);
    }
}
