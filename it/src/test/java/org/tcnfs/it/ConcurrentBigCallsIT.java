package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.Parents;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.VnfsClient;

/**
 * Several vectorized clients at once each send their bulk call as one COMPOUND (DESIGN.md, "largest
 * transaction"), as scripts/bench.sh's bigtxn row with eight clients checks. Every session asks for eight
 * slots of large cached replies; the reply cache budget (RFC 8881 18.36.4 lets the server grant less) used to
 * give the first sessions three slots of max-cached-reply each and the sixth to eighth one slot of 16 KiB, so
 * their 1,024-file calls, whose replies are cached, went out as dozens of compounds. 300 files per client
 * (replies estimated at 300 KiB) show the same in seconds.
 */
class ConcurrentBigCallsIT {
    private static final int CLIENTS = 8;
    private static final int FILES = 300;

    private ServerProcess server;

    @BeforeEach
    void startServer() throws Exception {
        // the bench's limits; the reply cache budget as on a 512 MiB heap (an eighth)
        server = ServerProcess.start("--max-ops", "8192", "--max-request", "17MiB", "--reply-cache-memory", "64MiB");
    }

    @AfterEach
    void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void eightClientsAtOnceEachWriteTheirHundredsOfFilesInOneCompound() throws Exception {
        List<VnfsClient> clients = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            for (int c = 0; c < CLIENTS; c++) {
                clients.add(VnfsClient.builder().host(server.host()).port(server.port()).connect());
            }
            List<String> dirs = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                dirs.add("big/c" + c);
            }
            assertThat(clients.get(0).vmkdir(dirs, Mode.PLAIN, Parents.CREATE).isOk()).isTrue();
            CountDownLatch go = new CountDownLatch(1);
            List<Future<VResult<Void>>> calls = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                VnfsClient client = clients.get(c);
                List<VWrite> items = new ArrayList<>();
                for (int f = 0; f < FILES; f++) {
                    items.add(VWrite.create("big/c" + c + "/f" + f, new byte[] {(byte) c, (byte) f}));
                }
                calls.add(pool.submit(() -> {
                    go.await();
                    return client.vwrite(items, Mode.PLAIN);
                }));
            }
            go.countDown();
            for (int c = 0; c < CLIENTS; c++) {
                VResult<Void> r = calls.get(c).get(2, TimeUnit.MINUTES);
                assertThat(r.isOk()).as("client %d", c).isTrue();
                assertThat(r.compounds()).as("COMPOUNDs of client %d's call of %d files (reply cache grant %d)", c,
                        FILES, clients.get(c).maxCachedReplyBytes()).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
            for (VnfsClient c : clients) {
                c.close();
            }
        }
    }
}
