package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.it.ServerProcess;

/**
 * Issue 14, item 6: a connection idle in the middle of a record was never closed. It is now closed after
 * rpc-idle-timeout with a log line; a connection idle between records stays open. A sender that trickles a record,
 * never idle for long, is closed once the record is not whole after four idle timeouts of reading.
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

    @Test
    void aConnectionTricklingARecordIsClosedAfterFourIdleTimeoutsWhileOthersAreServed() throws Exception {
        server = Hostile.start("--rpc-idle-timeout", "2s");
        try (Hostile.NormalClient normal = Hostile.NormalClient.open(server);
                Socket trickle = Hostile.connect(server)) {
            Hostile.Memory before = Hostile.memory(server);
            OutputStream out = trickle.getOutputStream();
            out.write(ByteBuffer.allocate(4).putInt(Hostile.LAST_FRAGMENT | 100_000).array());
            long start = System.nanoTime();
            long closedAfter = -1;
            // one byte every 400 ms: never idle for the 2 s timeout, and 100,000 bytes would take 11 hours; closed after
            // 8 s of reading, counted in sweeps of 500 ms (so from 7.5 s on)
            for (int i = 0; i < 60 && closedAfter < 0; i++) {
                try {
                    out.write(7);
                    out.flush();
                } catch (IOException e) {
                    closedAfter = (System.nanoTime() - start) / 1_000_000;
                    break;
                }
                if (Hostile.closedByServerWithin(trickle, Duration.ofMillis(400))) {
                    closedAfter = (System.nanoTime() - start) / 1_000_000;
                }
            }
            assertThat(closedAfter).as("ms until the trickling connection was closed").isBetween(7_000L, 16_000L);
            long after = normal.probeMillis();
            Hostile.report("a record trickled a byte every 400 ms (closed after " + closedAfter + " ms)", before,
                    Hostile.memory(server), after, after);
            assertThat(server.output()).contains("its RPC record is still not whole after")
                    .doesNotContain("then nothing for 2 s");
        }
    }
}
