package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A client that pipelines READs and never reads the replies: the replies queued for its connection are
 * bounded (2 MiB, NfsServer.REPLY_QUEUE_BYTES), past which the server reads no further request from it, instead of queueing 1 MiB per
 * request in the heap.
 */
class UnreadRepliesIT extends AttackedServerTest {
    @Override
    void prepareExport(Path exportDir) throws IOException {
        Files.write(exportDir.resolve("big"), new byte[1 << 20]);
    }

    @Test
    void aClientThatNeverReadsItsRepliesIsNotReadEither() throws IOException {
        byte[] fh = normal.lookup("big");
        Hostile.Memory before = Hostile.memory(server);
        long worst;
        Hostile.Memory during;
        // 4 x 1000 READs of 1 MiB: 4000 MiB of replies against a 256 MiB heap
        try (Attacks.UnreadReplies attack = Attacks.UnreadReplies.start(server, normal.lookup("big"), 4, 1000)) {
            worst = normal.worstMillis(Duration.ofSeconds(4));
            during = Hostile.memory(server);
            assertThat(server.isAlive()).as("server alive\n%s", server.output()).isTrue();
        }
        Hostile.sleep(200);
        long after = normal.probeMillis();
        Hostile.report("4 connections pipelining 1000 READs of 1 MiB each without reading a reply", before, during,
                worst, after);
        assertThat(worst).as("worst probe during the attack (ms)").isLessThan(Hostile.WEDGED_MILLIS);
        assertThat(after).as("probe after the attack (ms)").isLessThan(1000);
        assertThat(during.liveHeapMiB()).as("live heap during the attack (MiB)").isLessThan(160);
    }
}
