package org.tcnfs.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.XdrBytes;
import org.tcnfs.it.ServerProcess;

/**
 * A client that pipelines READs and never reads the replies: the replies queued for its connection are
 * bounded (8 MiB), past which the server reads no further request from it, instead of queueing 1 MiB per
 * request in the heap.
 */
class UnreadRepliesIT {
    private ServerProcess server;
    private Hostile.NormalClient normal;

    @BeforeEach
    void start() throws IOException {
        server = Hostile.start();
        Files.write(server.exportDir().resolve("big"), new byte[1 << 20]);
        normal = Hostile.NormalClient.open(server);
    }

    @AfterEach
    void stop() throws IOException {
        normal.close();
        server.close();
    }

    @Test
    void aClientThatNeverReadsItsRepliesIsNotReadEither() throws IOException {
        byte[] fh = normal.lookup("big");
        byte[] args = XdrBytes.encode(new CompoundBuilder().minorVersion(0).putfh(fh)
                .read(CompoundBuilder.anonymousStateid(), 0, 1 << 20).build());
        byte[] one = Hostile.record(Hostile.compoundCall(5, args));
        int requests = 1000; // 1000 MiB of replies against a 256 MiB heap
        ByteBuffer batch = ByteBuffer.allocate(one.length * requests);
        for (int i = 0; i < requests; i++) {
            batch.put(one);
        }
        Hostile.Memory before = Hostile.memory(server);
        long worst;
        Hostile.Memory during;
        Socket[] attackers = new Socket[4];
        try {
            for (int i = 0; i < attackers.length; i++) {
                Socket s = Hostile.connect(server);
                s.setReceiveBufferSize(64 * 1024);
                attackers[i] = s;
                Thread writer = new Thread(() -> {
                    try {
                        s.getOutputStream().write(batch.array());
                    } catch (IOException e) {
                        // the server stopped reading and the socket was closed at the end
                    }
                });
                writer.setDaemon(true);
                writer.start();
            }
            worst = normal.worstMillis(Duration.ofSeconds(4));
            during = Hostile.memory(server);
            assertThat(server.isAlive()).as("server alive\n%s", server.output()).isTrue();
        } finally {
            for (Socket s : attackers) {
                if (s != null) {
                    Hostile.closeQuietly(s);
                }
            }
        }
        Hostile.sleep(200);
        long after = normal.probeMillis();
        Hostile.report("4 connections pipelining 1000 READs of 1 MiB each without reading a reply", before, during,
                worst, after);
        assertThat(worst).as("worst probe during the attack (ms)").isLessThan(Hostile.WEDGED_MILLIS);
        assertThat(after).as("probe after the attack (ms)").isLessThan(1000);
        assertThat(during.heapMiB()).as("heap during the attack").isLessThan(200);
    }
}
