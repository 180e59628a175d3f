package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, item 2: records were buffered whole with no cap, so records of an allowed size sent on many
 * connections filled the heap. The bytes of records held across all connections now have a budget
 * (rpc-buffer-budget, 64 MiB); past it the server stops reading the connections that would hold more.
 */
class RecordBudgetIT extends AttackedServerTest {
    @Test
    void manyLargePartlySentRecordsStopBeingReadInsteadOfFillingTheHeap() throws IOException {
        Hostile.Memory before = Hostile.memory(server);
        long worst;
        Hostile.Memory during;
        long pushed;
        // 24 x 15 MiB = 360 MiB of records of the allowed size (16 MiB) against a 256 MiB heap
        try (Attacks.SlowRecords attack = Attacks.SlowRecords.push(server, 24, 16 << 20, 15L << 20,
                Duration.ofSeconds(8))) {
            pushed = attack.pushed;
            worst = normal.worstMillis(Duration.ofSeconds(3));
            during = Hostile.memory(server);
            assertThat(server.isAlive()).as("server alive\n%s", server.output()).isTrue();
        }
        Hostile.sleep(200);
        long after = normal.probeMillis();
        normal.freshClientMillis();
        Hostile.report("24 connections each sending 15 MiB of a 16 MiB record (" + (pushed >> 20)
                + " MiB accepted by the kernel)", before, during, worst, after);
        assertThat(worst).as("worst probe during the attack (ms)").isLessThan(Hostile.WEDGED_MILLIS);
        assertThat(after).as("probe after the attack (ms)").isLessThan(1000);
        assertThat(during.liveHeapMiB()).as("live heap during the attack (MiB)").isLessThan(160);
    }
}
