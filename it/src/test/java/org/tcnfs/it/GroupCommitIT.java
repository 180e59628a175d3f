package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.nfs4.status.NfsStatus;

/**
 * Group commit and shared fsyncs through the wire (issue 16; docs/durability.md, "Group commit and shared
 * fsyncs"): eight clients, each on a connection and session of its own, send their compounds at the same
 * moments; the server's counters show fewer flushes of the row journal than the plain creates and the transactions'
 * records and commit points that wrote a record to it, and fewer fsyncs than the COMMITs of one file that asked for
 * one, and every change is there afterwards with its content.
 */
class GroupCommitIT extends SharedServerTest {
    private static final int CLIENTS = 8;
    private static final int ROUNDS = 20;

    /** The counters this test reads, scraped at one moment. */
    private record Flushes(double fsyncs, double fsyncRequests, double commits, double commitRequests,
            double journalFlushes, double journalRecords) {
        static Flushes scrape(ServerProcess server) throws Exception {
            String s = server.scrapeMetrics();
            return new Flushes(value(s, "tcnfs_shared_fsyncs_total"), value(s, "tcnfs_shared_fsync_requests_total"),
                    value(s, "tcnfs_lmdb_durable_commits_total"), value(s, "tcnfs_lmdb_durable_commit_requests_total"),
                    value(s, "tcnfs_fsyncs_total{of=\"row.journal\"}"), value(s, "tcnfs_row_journal_records_total"));
        }

        private static double value(String scraped, String name) {
            return ServerProcess.metric(scraped, name)
                    .orElseThrow(() -> new AssertionError("no metric " + name + " in /metrics"));
        }

        Flushes minus(Flushes before) {
            return new Flushes(fsyncs - before.fsyncs, fsyncRequests - before.fsyncRequests, commits - before.commits,
                    commitRequests - before.commitRequests, journalFlushes - before.journalFlushes,
                    journalRecords - before.journalRecords);
        }
    }

    /** Runs {@code work(client, round)} on eight clients, all of them starting each round together. */
    private void inLockstep(String name, RoundWork work) throws Exception {
        try (ThreadClients clients = ThreadClients.open(server, name)) {
            CyclicBarrier together = new CyclicBarrier(CLIENTS);
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                NfsOps nfs = clients.newClient(name + "-" + c);
                tasks.add(() -> {
                    for (int r = 0; r < ROUNDS; r++) {
                        together.await(60, TimeUnit.SECONDS);
                        work.run(nfs, client, r);
                    }
                    return null;
                });
            }
            ThreadClients.runAll(tasks, TimeUnit.SECONDS.toNanos(120));
        }
    }

    @FunctionalInterface
    private interface RoundWork {
        void run(NfsOps nfs, int client, int round) throws Exception;
    }

    private static byte[] content(int client, int round) {
        return ("client " + client + " round " + round + "\n").repeat(4000).getBytes(StandardCharsets.UTF_8);
    }

    /** A directory for each client, made beforehand. */
    private byte[][] directories(String name) throws Exception {
        byte[][] dirs = new byte[CLIENTS][];
        try (ItSession own = ItSession.open(server, name + "-setup")) {
            byte[] top = own.nfs().mkdir(own.nfs().rootFh(), name);
            for (int c = 0; c < CLIENTS; c++) {
                dirs[c] = own.nfs().mkdir(top, "c" + c);
            }
        }
        return dirs;
    }

    @Test
    void eightClientsCreatingFilesAtTheSameMomentsShareRowJournalFlushes() throws Exception {
        byte[][] dirs = directories("gc-plain");
        Flushes before = Flushes.scrape(server);
        // each file: an OPEN-create compound (directory fsync, row journal flush), a FILE_SYNC WRITE compound
        // (file fsync), a CLOSE compound; each client in its own directory, so that no lock orders them
        inLockstep("gc-plain", (nfs, client, round) -> nfs.createFile(dirs[client], "f" + round,
                content(client, round)));
        Flushes used = Flushes.scrape(server).minus(before);
        System.out.println("GroupCommitIT plain creates: " + used);

        int creates = CLIENTS * ROUNDS;
        assertThat(used.journalRecords()).as("a row journal record per create").isGreaterThanOrEqualTo(creates);
        assertThat(used.journalFlushes()).as("row journal flushes for %s records", used.journalRecords())
                .isLessThan(used.journalRecords());
        assertThat(used.fsyncRequests()).as("a directory fsync per create and a file fsync per write")
                .isGreaterThanOrEqualTo(2.0 * creates);
        try (ItSession check = ItSession.open(server, "gc-plain-check")) {
            for (int c = 0; c < CLIENTS; c++) {
                for (int r = 0; r < ROUNDS; r++) {
                    byte[] fh = check.nfs().lookup(dirs[c], "f" + r);
                    assertThat(check.nfs().read(fh)).as("c%s/f%s", c, r).isEqualTo(content(c, r));
                }
            }
        }
    }

    @Test
    void eightClientsOverwritingFilesInTransactionsShareRowJournalFlushes() throws Exception {
        byte[][] dirs = directories("gc-txn");
        byte[][] files = new byte[CLIENTS][];
        try (ItSession own = ItSession.open(server, "gc-txn-files")) {
            for (int c = 0; c < CLIENTS; c++) {
                files[c] = own.nfs().createFile(dirs[c], "f", content(c, -1));
            }
        }
        Flushes before = Flushes.scrape(server);
        // each round: a transaction that truncates the client's file (light: a backup kept in memory, the file's
        // fsync), one that writes it again (its record and its commit point)
        inLockstep("gc-txn", (nfs, client, round) -> {
            CompoundResult r = nfs.session().executeTransaction(new CompoundBuilder().putfh(files[client])
                    .setattr(org.tcnfs.client.Attrs.builder().size(0).build()));
            assertThat(r.status()).as("client %s round %s: %s", client, round, r).isEqualTo(NfsStatus.OK);
            r = nfs.session().executeTransaction(new CompoundBuilder().putfh(files[client])
                    .write(CompoundBuilder.anonymousStateid(), 0, content(client, round)));
            assertThat(r.status()).as("client %s round %s: %s", client, round, r).isEqualTo(NfsStatus.OK);
        });
        Flushes used = Flushes.scrape(server).minus(before);
        System.out.println("GroupCommitIT transactions: " + used);

        int transactions = 2 * CLIENTS * ROUNDS;
        // the write's record and commit point, a row journal record each (the truncation takes the light path: no
        // record, and no row changes: nothing to commit)
        assertThat(used.journalRecords()).as("a row journal record for each record and commit point")
                .isGreaterThanOrEqualTo(transactions);
        assertThat(used.journalFlushes()).as("row journal flushes for %s records", used.journalRecords())
                .isLessThan(used.journalRecords());
        try (ItSession check = ItSession.open(server, "gc-txn-check")) {
            for (int c = 0; c < CLIENTS; c++) {
                assertThat(check.nfs().read(files[c])).as("c%s/f", c).isEqualTo(content(c, ROUNDS - 1));
            }
        }
    }

    @Test
    void eightClientsCommittingOneFileAtTheSameMomentShareItsFsyncs() throws Exception {
        byte[] file;
        try (ItSession own = ItSession.open(server, "gc-commit-setup")) {
            byte[] dir = own.nfs().mkdir(own.nfs().rootFh(), "gc-commit");
            file = own.nfs().createFile(dir, "shared", new byte[0]);
        }
        CyclicBarrier written = new CyclicBarrier(CLIENTS);
        Flushes before = Flushes.scrape(server);
        // each round: every client writes its own range UNSTABLE (WRITE locks the file: one after another), then
        // all of them COMMIT the file at once (COMMIT locks it for reading: at the same time)
        inLockstep("gc-commit", (nfs, client, round) -> {
            byte[] data = content(client, round);
            nfs.runOk(new CompoundBuilder().putfh(file).write(CompoundBuilder.anonymousStateid(),
                    (long) client * data.length, org.tcnfs.nfs4.xdr.stable_how4.UNSTABLE4, data));
            written.await(60, TimeUnit.SECONDS);
            nfs.runOk(new CompoundBuilder().putfh(file).commit(0, 0));
        });
        Flushes used = Flushes.scrape(server).minus(before);
        System.out.println("GroupCommitIT commits of one file: " + used);

        int commits = CLIENTS * ROUNDS;
        assertThat(used.fsyncRequests()).as("an fsync per COMMIT").isGreaterThanOrEqualTo(commits);
        assertThat(used.fsyncs()).as("fsyncs run for %s COMMITs", commits).isLessThan(used.fsyncRequests());
    }
}
