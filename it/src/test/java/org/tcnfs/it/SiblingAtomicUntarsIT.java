package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.Nfs41Session.SpanningTransaction;
import org.tcnfs.client.cli.TcnfsCli;
import org.tcnfs.nfs4.status.NfsStatus;

/**
 * Eight {@code tcnfs untar --atomic} at once, each into its own new directory of the export root (issue 15): each
 * transaction creates its target directory, so it write-locks the root for its whole length (docs/protocol.md,
 * "Locks and deadlocks") and the eight run one after the other; the younger ones die by wait-die
 * (NFS4ERR_DEADLOCK) and begin again with their old tickets until they are the oldest. Here an older transaction
 * of the test itself holds the root for reading first, until every untar has died more than 20 times: the client
 * of 15c46e0 gave up after 20 attempts (about 10 s of pauses), so all eight failed; the client now retries for as
 * long as it sees progress (an older transaction that holds the key), so all eight commit once the older one has.
 * The server allows 32 operations per compound, so each archive needs several compounds. The eight runs of the
 * command line share this JVM (eight JVMs would spend more time starting than untarring); their messages go to
 * its standard error.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SiblingAtomicUntarsIT {
    private static final int CLIENTS = 8;
    private static final int FILES = 40;
    /** The attempts after which the client of 15c46e0 gave up. */
    private static final int OLD_ATTEMPTS = 20;
    /** The longest the test's older transaction holds the root (less than the server's txn-idle-timeout). */
    private static final Duration HOLD = Duration.ofSeconds(75);

    private ServerProcess server;
    private Path tmp;
    private Path archive;

    @BeforeAll
    void start() throws IOException {
        server = ServerProcess.startIn(ServerProcess.defaultWorkDirectory(), List.of(), "--max-ops", "32");
        tmp = Files.createTempDirectory(ServerProcess.defaultWorkDirectory(), "sibling-untars-");
        archive = tmp.resolve("tree.tar");
        try (OutputStream out = Files.newOutputStream(archive);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            for (int i = 0; i < FILES; i++) {
                byte[] data = ("int f" + i + ";\n").getBytes(StandardCharsets.UTF_8);
                TarArchiveEntry e = new TarArchiveEntry("src/pkg" + (i % 7) + "/file" + i + ".c");
                e.setSize(data.length);
                e.setMode(0644);
                tar.putArchiveEntry(e);
                tar.write(data);
                tar.closeArchiveEntry();
            }
        }
    }

    @AfterAll
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        if (tmp != null) {
            ServerProcess.deleteTree(tmp);
        }
    }

    @Test
    void eightConcurrentAtomicUntarsIntoSiblingDirectoriesAllCommit() throws Exception {
        String url = "nfs://127.0.0.1:" + server.port() + "/";
        double abortsBefore = server.metric("tcnfs_txn_spanning_aborts_total");
        double diedBefore = server.metric("tcnfs_txn_lock_waitdie_total");
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        List<Future<Integer>> runs = new ArrayList<>();
        try (ItSession holder = ItSession.open(server, "holder")) {
            // an older transaction works in a directory of the root: it holds the root for reading (an ancestor of
            // what it changes), which the untars' plain lookups may share but their transactions, which create a
            // name in the root, may not
            byte[] olderDir = holder.nfs().mkdir(holder.nfs().rootFh(), "older");
            SpanningTransaction older = holder.session().beginTransaction(0);
            assertThat(NfsStatus.of(older.beginStatus())).isEqualTo(NfsStatus.OK);
            assertThat(older.execute(new CompoundBuilder().putfh(olderDir).mkdir("inner")).status())
                    .isEqualTo(NfsStatus.OK);
            for (int c = 0; c < CLIENTS; c++) {
                String target = url + "sibling" + c;
                runs.add(pool.submit(() -> TcnfsCli.run("untar", "--no-progress", "--atomic", archive.toString(),
                        target)));
            }
            // until each has died more often than the 20 attempts after which the client of 15c46e0 gave up
            long deadline = System.nanoTime() + HOLD.toNanos();
            while (server.metric("tcnfs_txn_lock_waitdie_total") - diedBefore < CLIENTS * (OLD_ATTEMPTS + 1)
                    && System.nanoTime() < deadline && runs.stream().noneMatch(Future::isDone)) {
                Thread.sleep(200);
            }
            for (int c = 0; c < CLIENTS; c++) {
                assertThat(runs.get(c).isDone()).as("untar into sibling%d ended while the older transaction held "
                        + "the root (exit status %s)", c, runs.get(c).isDone() ? runs.get(c).get() : null).isFalse();
            }
            assertThat(NfsStatus.of(older.commit())).isEqualTo(NfsStatus.OK);
            for (int c = 0; c < CLIENTS; c++) {
                assertThat(runs.get(c).get(3, TimeUnit.MINUTES)).as("exit status of untar --atomic into sibling%d "
                        + "(its message is on standard error)", c).isZero();
            }
        } finally {
            pool.shutdownNow();
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        double restarts = server.metric("tcnfs_txn_spanning_aborts_total") - abortsBefore;
        double died = server.metric("tcnfs_txn_lock_waitdie_total") - diedBefore;
        System.out.printf("%d atomic untars of %d files into sibling directories behind an older transaction: "
                + "%d ms, %.0f transactions begun again, %.0f died by wait-die%n", CLIENTS, FILES, millis, restarts,
                died);
        assertThat(died).as("deaths by wait-die while the older transaction held the root")
                .isGreaterThanOrEqualTo(CLIENTS * (OLD_ATTEMPTS + 1));
        assertThat(server.exportDir().resolve("older/inner")).isDirectory();

        for (int c = 0; c < CLIENTS; c++) {
            Path extracted = server.exportDir().resolve("sibling" + c);
            assertThat(extracted.resolve("src/pkg4/file39.c")).hasContent("int f39;");
            try (var s = Files.walk(extracted)) {
                assertThat(s.filter(Files::isRegularFile).count()).as("files in sibling%d", c).isEqualTo(FILES);
            }
        }
    }
}
