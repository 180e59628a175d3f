package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.it.ServerProcess;

/**
 * Issue 14, item 6: a connection idle in the middle of a record was never closed. It is now closed after
 * rpc-idle-timeout with a log line; a connection idle between records stays open.
 */
class IdleRecordIT {
    private ServerProcess server;

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    @Test
    void aConnectionIdleInTheMiddleOfARecordIsClosedAndOneIdleBetweenRecordsIsNot() throws IOException {
        server = Hostile.start("--rpc-idle-timeout", "2s");
        try (Hostile.NormalClient normal = Hostile.NormalClient.open(server);
                Socket between = Hostile.connect(server)) {
            Hostile.Memory before = Hostile.memory(server);
            Hostile.ping(between, 1);
            long start = System.nanoTime();
            Socket partial = Attacks.idlePartialRecord(server);
            assertThat(Hostile.closedByServerWithin(partial, Duration.ofSeconds(8))).as("closed").isTrue();
            long closedAfter = (System.nanoTime() - start) / 1_000_000;
            partial.close();
            assertThat(closedAfter).as("ms until closed").isBetween(1900L, 6000L);
            Hostile.ping(between, 2);
            long after = normal.probeMillis();
            Hostile.report("a connection idle in the middle of a record (closed after " + closedAfter + " ms)",
                    before, Hostile.memory(server), after, after);
            assertThat(server.output()).contains("bytes of an RPC record, then nothing for 2 s");
        }
    }
}
