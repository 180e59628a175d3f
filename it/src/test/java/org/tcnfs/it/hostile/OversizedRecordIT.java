package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.it.ServerProcess;

/**
 * Issue 14, item 2: a record marker claiming 2 GiB, its data sent slowly on 4 connections, wedged a 512 MiB
 * server for good. A record longer than the largest request a session may negotiate now closes its connection
 * as soon as the marker that claims it arrives, with one log line.
 */
class OversizedRecordIT {
    private ServerProcess server;
    private Hostile.NormalClient normal;

    @AfterEach
    void stop() throws IOException {
        if (normal != null) {
            normal.close();
        }
        server.close();
    }

    @Test
    void aRecordMarkerClaimingTwoGibibytesClosesTheConnectionAtOnce() throws IOException {
        server = Hostile.start();
        normal = Hostile.NormalClient.open(server);
        Hostile.Memory before = Hostile.memory(server);
        List<Socket> attack = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            attack.add(Attacks.hugeMarker(server, Integer.MAX_VALUE));
        }
        for (Socket s : attack) {
            assertThat(Hostile.closedByServerWithin(s, Duration.ofSeconds(2))).as("closed by the server").isTrue();
            s.close();
        }
        long after = normal.probeMillis();
        Hostile.report("4 record markers claiming 2 GiB", before, Hostile.memory(server), after, after);
        assertThat(after).as("probe after the attack (ms)").isLessThan(1000);
        assertThat(server.output().lines().filter(l -> l.contains("more than the largest request")).count())
                .as("one line per connection\n%s", server.output()).isEqualTo(4);
    }

    @Test
    void fragmentsAddingUpToMoreThanTheLargestRequestCloseTheConnection() throws IOException {
        server = Hostile.start("--max-request", "1MiB");
        normal = Hostile.NormalClient.open(server);
        try (Socket s = Hostile.connect(server)) {
            int fragment = 1 << 20;
            s.getOutputStream().write(ByteBuffer.allocate(4).putInt(fragment).array());
            s.getOutputStream().write(new byte[fragment]);
            s.getOutputStream().write(ByteBuffer.allocate(4).putInt(fragment).array());
            assertThat(Hostile.closedByServerWithin(s, Duration.ofSeconds(2))).as("closed by the server").isTrue();
        }
        assertThat(normal.probeMillis()).isLessThan(1000);
        assertThat(server.output()).contains("more than the largest request a session may negotiate");
    }
}
