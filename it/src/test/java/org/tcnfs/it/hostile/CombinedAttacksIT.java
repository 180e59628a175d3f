package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The network attacks of issue 14 (items 1, 2 and 6) at once against one small-heap server: gid bombs,
 * 2 GiB record markers, many large partly sent records, records left idle, a flood of undecodable
 * requests and READs whose replies are never read. The server stays up, a normal client is served throughout, and within a second after.
 */
class CombinedAttacksIT extends AttackedServerTest {
    @Override
    String[] serverOptions() {
        return new String[] {"--rpc-idle-timeout", "3s"};
    }

    @Override
    void prepareExport(Path exportDir) throws IOException {
        Files.write(exportDir.resolve("big"), new byte[1 << 20]);
    }

    @Test
    void allNetworkAttacksAtOnceNeitherEndNorWedgeTheServer() throws Exception {
        Hostile.Memory before = Hostile.memory(server);
        List<Socket> markers = new ArrayList<>();
        List<Socket> idle = new ArrayList<>();
        long worst;
        Hostile.Memory during;
        try (Attacks.RepliedFlood bombs = Attacks.gidBombs(server, 2, 2000);
                Attacks.RepliedFlood flood = Attacks.undecodableFlood(server, 2, 5000);
                Attacks.UnreadReplies unread = Attacks.UnreadReplies.start(server, normal.lookup("big"), 2, 1000)) {
            for (int i = 0; i < 4; i++) {
                markers.add(Attacks.hugeMarker(server, Integer.MAX_VALUE));
                idle.add(Attacks.idlePartialRecord(server));
            }
            try (Attacks.SlowRecords slow = Attacks.SlowRecords.push(server, 24, 16 << 20, 15L << 20,
                    Duration.ofSeconds(8))) {
                worst = normal.worstMillis(Duration.ofSeconds(4));
                during = Hostile.memory(server);
                bombs.await(Duration.ofSeconds(30));
                flood.await(Duration.ofSeconds(30));
                assertThat(server.isAlive()).as("server alive\n%s", server.output()).isTrue();
                assertThat(bombs.answered.get()).as("AUTH_BADCRED replies").isEqualTo(4000);
                assertThat(flood.answered.get()).as("GARBAGE_ARGS replies").isEqualTo(10000);
            }
            for (Socket s : markers) {
                assertThat(Hostile.closedByServerWithin(s, Duration.ofSeconds(1))).as("2 GiB marker closed").isTrue();
            }
            for (Socket s : idle) {
                assertThat(Hostile.closedByServerWithin(s, Duration.ofSeconds(6))).as("idle record closed").isTrue();
            }
        } finally {
            markers.forEach(Hostile::closeQuietly);
            idle.forEach(Hostile::closeQuietly);
        }
        Hostile.sleep(200);
        long after = normal.probeMillis();
        normal.freshClientMillis();
        Hostile.report("all of the above at once", before, during, worst, after);
        assertThat(server.isAlive()).isTrue();
        assertThat(worst).as("worst probe during the attack (ms)").isLessThan(Hostile.WEDGED_MILLIS);
        assertThat(after).as("probe after the attack (ms)").isLessThan(1000);
    }
}
