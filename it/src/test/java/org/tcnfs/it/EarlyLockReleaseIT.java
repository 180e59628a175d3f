package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.stable_how4;

/**
 * Early lock release of plain compounds through the wire (issue 16; docs/durability.md, "Early lock release"), on
 * a server whose fsyncs each take {@value #DELAY_MS} ms longer ({@code -Dtcnfs.test.fsync-delay-ms}, a slow disk):
 * compounds that change the same object no longer queue behind each other's flushes but share them, and a compound
 * that saw a change not yet durable does not reply (nor commit, if it is a transaction) before it is durable.
 */
class EarlyLockReleaseIT extends SharedServerTest {
    private static final long DELAY_MS = 300;
    private static final int CLIENTS = 8;
    private static final int ROUNDS = 4;
    private static final String DIRECTORY_FSYNCS = "tcnfs_fsyncs_total{of=\"directory\"}";

    @Override
    @BeforeAll
    void startServer() throws IOException {
        server = ServerProcess.startIn(workDirectory(), List.of("-Dtcnfs.test.fsync-delay-ms=" + DELAY_MS));
    }

    private record Fsyncs(double runs, double requests) {
        static Fsyncs scrape(ServerProcess server) throws Exception {
            String s = server.scrapeMetrics();
            return new Fsyncs(ServerProcess.metric(s, "tcnfs_shared_fsyncs_total").orElseThrow(),
                    ServerProcess.metric(s, "tcnfs_shared_fsync_requests_total").orElseThrow());
        }

        Fsyncs minus(Fsyncs before) {
            return new Fsyncs(runs - before.runs, requests - before.requests);
        }
    }

    private static byte[] content(String what, int length) {
        byte[] line = (what + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] data = new byte[length];
        for (int i = 0; i < length; i++) {
            data[i] = line[i % line.length];
        }
        return data;
    }

    private byte[] setUpFile(String dirName, String name, byte[] data) throws Exception {
        try (ItSession own = ItSession.open(server, dirName + "-setup")) {
            byte[] dir = own.nfs().mkdir(own.nfs().rootFh(), dirName);
            return own.nfs().createFile(dir, name, data);
        }
    }

    private static CompoundBuilder stableWrite(byte[] fh, long offset, byte[] data) {
        return new CompoundBuilder().putfh(fh).write(CompoundBuilder.anonymousStateid(), offset,
                stable_how4.FILE_SYNC4, data);
    }

    private static byte[] readData(CompoundResult r) {
        ByteBuffer data = r.body(nfs_opnum4.OP_READ, READ4resok.class).data.duplicate();
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        return bytes;
    }

    @Test
    void compoundsWritingOneFileAtOnceShareItsFsyncsInsteadOfQueueingBehindThem() throws Exception {
        int chunk = 4096;
        byte[] file = setUpFile("elr-one-file", "f", new byte[0]);
        Fsyncs before = Fsyncs.scrape(server);
        try (ThreadClients clients = ThreadClients.open(server, "elr-one-file")) {
            CyclicBarrier together = new CyclicBarrier(CLIENTS);
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                NfsOps nfs = clients.newClient("elr-one-file-" + c);
                tasks.add(() -> {
                    for (int r = 0; r < ROUNDS; r++) {
                        together.await(60, TimeUnit.SECONDS);
                        nfs.runOk(stableWrite(file, (long) client * chunk, content("c" + client + " r" + r, chunk)));
                    }
                    return null;
                });
            }
            ThreadClients.runAll(tasks, TimeUnit.SECONDS.toNanos(120));
        }
        Fsyncs used = Fsyncs.scrape(server).minus(before);
        System.out.println("EarlyLockReleaseIT one file, " + CLIENTS + " clients x " + ROUNDS + " rounds: " + used);

        // with the file's WRITE lock held through its fsync, each of the 32 writes waited for the one before and ran
        // an fsync of its own; released before the fsync, the writes that come while one runs share the next one
        assertThat(used.requests()).as("an fsync per FILE_SYNC write").isGreaterThanOrEqualTo(CLIENTS * ROUNDS);
        assertThat(used.runs()).as("fsyncs run for %s FILE_SYNC writes of one file", used.requests())
                .isLessThan(used.requests() * 0.75);
        assertThat(server.metric("tcnfs_txn_lock_early_releases_total")).isGreaterThanOrEqualTo(CLIENTS * ROUNDS);
        try (ItSession check = ItSession.open(server, "elr-one-file-check")) {
            byte[] all = check.nfs().read(file);
            for (int c = 0; c < CLIENTS; c++) {
                assertThat(Arrays.copyOfRange(all, c * chunk, (c + 1) * chunk)).as("client %s's range", c)
                        .isEqualTo(content("c" + c + " r" + (ROUNDS - 1), chunk));
            }
        }
    }

    @Test
    void aCompoundThatReadsAnUnflushedWriteRepliesOnlyAfterItIsDurable() throws Exception {
        byte[] old = content("old", 4096);
        byte[] file = setUpFile("elr-read", "f", old);
        byte[] fresh = content("new", 4096);
        double dependenciesBefore = server.metric("tcnfs_txn_lock_commit_dependencies_total");
        try (ItSession writer = ItSession.open(server, "elr-read-w");
                ItSession reader = ItSession.open(server, "elr-read-r")) {
            long sent = System.nanoTime();
            CompletableFuture<CompoundResult> write = CompletableFuture.supplyAsync(() -> {
                try {
                    return writer.nfs().run(stableWrite(file, 0, fresh));
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            // READ until it sees the new data: the first READ that does must not reply before the WRITE's fsync
            // (which takes at least DELAY_MS after the WRITE was sent) has completed
            long sawItAfter = -1;
            for (int i = 0; i < 10_000 && sawItAfter < 0; i++) {
                CompoundResult r = reader.nfs().runOk(new CompoundBuilder().putfh(file)
                        .read(CompoundBuilder.anonymousStateid(), 0, 4096));
                long replied = System.nanoTime();
                if (Arrays.equals(readData(r), fresh)) {
                    sawItAfter = replied - sent;
                } else {
                    assertThat(readData(r)).isEqualTo(old);
                }
            }
            assertThat(write.get(60, TimeUnit.SECONDS).status()).isEqualTo(NfsStatus.OK);
            assertThat(sawItAfter).as("the READ saw the WRITE").isPositive();
            assertThat(TimeUnit.NANOSECONDS.toMillis(sawItAfter))
                    .as("ms from the WRITE's sending to the reply of the first READ that saw it")
                    .isGreaterThanOrEqualTo(DELAY_MS);
        }
        assertThat(server.metric("tcnfs_txn_lock_commit_dependencies_total"))
                .as("the READ that saw the unflushed WRITE depended on it").isGreaterThan(dependenciesBefore);
    }

    @Test
    void aTransactionThatSawAnUnflushedWriteCommitsOnlyAfterItIsDurable() throws Exception {
        byte[] file = setUpFile("elr-txn", "f", content("old", 4096));
        byte[] fresh = content("new", 4096);
        try (ItSession writer = ItSession.open(server, "elr-txn-w");
                ItSession txn = ItSession.open(server, "elr-txn-t")) {
            long sent = System.nanoTime();
            CompletableFuture<CompoundResult> write = CompletableFuture.supplyAsync(() -> {
                try {
                    return writer.nfs().run(stableWrite(file, 0, fresh));
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            long sawItAfter = -1;
            for (int i = 0; i < 10_000 && sawItAfter < 0; i++) {
                // a transaction that only reads (nothing of its own to flush)
                CompoundResult r = txn.session().executeTransaction(new CompoundBuilder().putfh(file)
                        .read(CompoundBuilder.anonymousStateid(), 0, 4096));
                long replied = System.nanoTime();
                assertThat(r.status()).as("%s", r).isEqualTo(NfsStatus.OK);
                if (Arrays.equals(readData(r), fresh)) {
                    sawItAfter = replied - sent;
                }
            }
            assertThat(write.get(60, TimeUnit.SECONDS).status()).isEqualTo(NfsStatus.OK);
            assertThat(TimeUnit.NANOSECONDS.toMillis(sawItAfter))
                    .as("ms from the WRITE's sending to the commit of the first transaction that saw it")
                    .isGreaterThanOrEqualTo(DELAY_MS);
        }
    }

    @Test
    void clientsCreatingFilesInOneDirectoryAtOnceShareItsFsyncs() throws Exception {
        byte[] dir;
        try (ItSession own = ItSession.open(server, "elr-dir-setup")) {
            dir = own.nfs().mkdir(own.nfs().rootFh(), "elr-dir");
        }
        Fsyncs before = Fsyncs.scrape(server);
        double directoryBefore = server.metric(DIRECTORY_FSYNCS);
        try (ThreadClients clients = ThreadClients.open(server, "elr-dir")) {
            CyclicBarrier together = new CyclicBarrier(CLIENTS);
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                NfsOps nfs = clients.newClient("elr-dir-" + c);
                tasks.add(() -> {
                    for (int r = 0; r < ROUNDS; r++) {
                        together.await(60, TimeUnit.SECONDS);
                        nfs.createFile(dir, "c" + client + "-" + r, content("c" + client + " r" + r, 100));
                    }
                    return null;
                });
            }
            ThreadClients.runAll(tasks, TimeUnit.SECONDS.toNanos(120));
        }
        Fsyncs used = Fsyncs.scrape(server).minus(before);
        double directory = server.metric(DIRECTORY_FSYNCS) - directoryBefore;
        System.out.println("EarlyLockReleaseIT one directory, " + CLIENTS + " clients x " + ROUNDS + " creates: " + used
                + ", directory fsyncs " + directory);
        // with the directory's WRITE lock held through its fsync, every create ran a directory fsync of its own
        assertThat(directory).as("fsyncs of the directory for %s creates in it", CLIENTS * ROUNDS)
                .isLessThan(CLIENTS * ROUNDS * 0.75);
        try (ItSession check = ItSession.open(server, "elr-dir-check")) {
            assertThat(check.nfs().readdirNames(dir)).hasSize(CLIENTS * ROUNDS);
            for (int c = 0; c < CLIENTS; c++) {
                byte[] fh = check.nfs().lookup(dir, "c" + c + "-" + (ROUNDS - 1));
                assertThat(check.nfs().read(fh)).isEqualTo(content("c" + c + " r" + (ROUNDS - 1), 100));
            }
        }
    }
}
