package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.nfs4_attr;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * How many device flushes one plain name change costs before its reply, as a client that sends one operation per
 * compound (fuse-nfs, the kernel client) sees it (docs/durability.md; issue 16): counted by the server's
 * {@code tcnfs_fsyncs_total} through its metrics endpoint, around single compounds sent through the wire.
 * <ul>
 *   <li>{@code sync} (the default): an OPEN-create fsyncs its directory and makes its handle rows durable with one
 *       flush of the row journal (before 2026-11-27: a durable LMDB commit, two flushes of the handle table; the
 *       rows reach LMDB with the background flush within a second); a REMOVE fsyncs its directory only: the removed
 *       object's row goes later (before this change: the directory and two handle-table flushes);</li>
 *   <li>{@code async}: an OPEN-create and a REMOVE flush nothing and commit nothing to the handle table before
 *       their replies (the create's rows wait in memory as pending rows, visible to all); the rows' commit and the
 *       directory syncs follow within a second.</li>
 * </ul>
 */
class PlainNameChangeFlushesIT {
    private static final String DIRECTORY = "tcnfs_fsyncs_total{of=\"directory\"}";
    private static final String FILE = "tcnfs_fsyncs_total{of=\"file\"}";
    private static final String TABLE = "tcnfs_fsyncs_total{of=\"handle.table\"}";
    private static final String JOURNAL = "tcnfs_fsyncs_total{of=\"row.journal\"}";
    private static final String LATE = "tcnfs_late_pending";
    private static final String HAND_OFFS = "tcnfs_fsync_pool_handoffs_total";
    private static final String ROW_FLUSHES_HANDED_OFF = "tcnfs_row_flushes_handed_off_total";
    private static final String COMMITS = "tcnfs_handle_table_commits_total";
    private static final String PENDING_ROWS = "tcnfs_handle_table_pending_rows";

    private static ServerProcess sync;
    private static ServerProcess async;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /**
     * The servers' background flush waits 4 s instead of 1 s ({@code -Dtcnfs.test.late-delay-ms}): under a CI run's
     * parallel forks a counted compound with its scrapes took over a second, and the background flush of its own rows
     * was counted as its own flushes.
     */
    private static final List<String> LATE_DELAY = List.of("-Dtcnfs.test.late-delay-ms=4000");

    @BeforeAll
    static void startServers() throws IOException {
        sync = ServerProcess.start(LATE_DELAY);
        async = ServerProcess.start(LATE_DELAY, "--data-options", "rw,no_root_squash,async");
    }

    @AfterAll
    static void stopServers() throws IOException {
        for (ServerProcess s : new ServerProcess[] {sync, async}) {
            if (s != null) {
                s.close();
            }
        }
    }

    private Map<String, Double> scrape(ServerProcess server) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.metricsPort()
                + "/metrics")).timeout(Duration.ofSeconds(30)).build();
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        Map<String, Double> samples = new HashMap<>();
        for (String line : r.body().split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                int space = line.lastIndexOf(' ');
                samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            }
        }
        return samples;
    }

    /** Flushes of each kind one compound made, counted around it. */
    private record Flushes(long directories, long files, long table, long journal, long latePending) {
    }

    @FunctionalInterface
    private interface Step {
        void run() throws IOException;
    }

    private Flushes around(ServerProcess server, Step step) throws Exception {
        Map<String, Double> before = scrape(server);
        step.run();
        Map<String, Double> after = scrape(server);
        return new Flushes(delta(before, after, DIRECTORY), delta(before, after, FILE), delta(before, after, TABLE),
                delta(before, after, JOURNAL), after.getOrDefault(LATE, 0.0).longValue());
    }

    private static long delta(Map<String, Double> before, Map<String, Double> after, String series) {
        assertThat(after).containsKey(series);
        return (long) (after.get(series) - before.getOrDefault(series, 0.0));
    }

    /**
     * Waits until the server's background flush has done everything queued and its flushes have ended (at most 20 s):
     * nothing queued, no pending rows, and no flush or commit counted for 300 ms. The flush takes its work off the
     * queue before it syncs and commits, so an empty queue alone does not mean it is done (under load it may still be
     * flushing when the next counted compound starts, and its flushes would be counted as that compound's).
     */
    private void settle(ServerProcess server) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        List<Double> last = null;
        while (System.nanoTime() < deadline) {
            Map<String, Double> now = scrape(server);
            List<Double> counted = List.of(now.getOrDefault(DIRECTORY, 0.0), now.getOrDefault(FILE, 0.0),
                    now.getOrDefault(TABLE, 0.0), now.getOrDefault(JOURNAL, 0.0), now.getOrDefault(COMMITS, 0.0));
            boolean idle = now.getOrDefault(LATE, 0.0) == 0 && now.getOrDefault(PENDING_ROWS, 0.0) == 0;
            if (idle && counted.equals(last)) {
                return;
            }
            last = idle ? counted : null;
            Thread.sleep(300);
        }
    }

    /** One directory of the test with an OPEN-create and a REMOVE as single compounds, flushes counted. */
    private record Counted(Flushes create, Flushes close, Flushes remove, byte[] file, NfsOps nfs) {
    }

    private Counted createAndRemove(ServerProcess server, String dirName) throws Exception {
        NfsConnection connection = server.connect();
        Nfs41Session session = Nfs41Session.create(connection, "flushes-" + dirName);
        NfsOps nfs = new NfsOps(session);
        byte[] dir = nfs.mkdir(nfs.rootFh(), dirName);
        settle(server);
        CompoundResult[] opened = new CompoundResult[1];
        Flushes create = around(server, () -> opened[0] = nfs.runOk(new CompoundBuilder().putfh(dir)
                .openCreate(session.clientId(), nfs.openOwner(), "f", OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                        Attrs.builder().mode(0644).build())
                .getfh()));
        byte[] file = opened[0].fileHandle();
        stateid4 open = opened[0].body(OP_OPEN, OPEN4resok.class).stateid;
        Flushes close = around(server, () -> nfs.runOk(new CompoundBuilder().putfh(file).close(open)));
        settle(server);
        Flushes remove = around(server, () -> nfs.runOk(new CompoundBuilder().putfh(dir).remove("f")));
        return new Counted(create, close, remove, file, nfs);
    }

    @Test
    void syncExportOpenCreateFlushesItsDirectoryAndTheRowJournalOnceAndRemoveOnlyItsDirectory() throws Exception {
        Counted c = createAndRemove(sync, "sync-flushes");
        assertThat(c.create()).as("OPEN-create").isEqualTo(new Flushes(1, 0, 0, 1, 0));
        assertThat(c.close()).as("CLOSE").isEqualTo(new Flushes(0, 0, 0, 0, 0));
        assertThat(c.remove().directories()).as("REMOVE: directory fsyncs").isEqualTo(1);
        assertThat(c.remove().table()).as("REMOVE: handle-table flushes before the reply").isZero();
        assertThat(c.remove().latePending()).as("the row of the removed file, queued").isEqualTo(1);
        assertThat(c.nfs().run(new CompoundBuilder().putfh(c.file()).getattr(nfs4_attr.FATTR4_TYPE)).status())
                .isEqualTo(NfsStatus.STALE);
        settle(sync);
        assertThat(scrape(sync).get(LATE)).isZero();
        assertThat(c.nfs().run(new CompoundBuilder().putfh(c.file()).getattr(nfs4_attr.FATTR4_TYPE)).status())
                .isEqualTo(NfsStatus.STALE);
        c.nfs().session().close();
    }

    @Test
    void asyncExportRepliesBeforeAnyDirectoryFsyncAndMakesThemInTheBackground() throws Exception {
        Map<String, Double> start = scrape(async);
        Counted c = createAndRemove(async, "async-flushes");
        assertThat(c.create()).as("OPEN-create: no flush at all").isEqualTo(new Flushes(0, 0, 0, 0, 1));
        assertThat(c.remove()).as("REMOVE: nothing before the reply").isEqualTo(new Flushes(0, 0, 0, 0, 2));
        assertThat(c.nfs().run(new CompoundBuilder().putfh(c.file()).getattr(nfs4_attr.FATTR4_TYPE)).status())
                .isEqualTo(NfsStatus.STALE);
        settle(async);
        Map<String, Double> end = scrape(async);
        assertThat(end.get(LATE)).isZero();
        // mkdir in the root, the OPEN-create and the REMOVE: each directory synced at least once, in the background
        assertThat(delta(start, end, DIRECTORY)).isBetween(2L, 3L);
        c.nfs().session().close();
    }
    /**
     * The one-file compound of the workload driver's {@code degree k=1} row (OPEN-create, a stable WRITE, CLOSE) fsyncs
     * its file and its directory and flushes the row journal once; the one sync it hands to the pool is the journal's
     * flush: its own thread syncs its file and then its directory, the longest wait, and no thread wake-up stands
     * before the file's fsync or after the directory's (before, the file and directory went to a pool thread while the
     * compound's thread flushed the journal, and the reply waited for the pool thread to start and then to wake it
     * again; issue 16, h-k1). The test servers' data is not on XFS, so no directory fsync is left out (see
     * {@code OrderedLogFlushesIT}).
     */
    @Test
    void syncExportCreateWriteCloseCompoundSyncsItsFileItselfAndHandsTheJournalFlushToThePool() throws Exception {
        NfsConnection connection = sync.connect();
        Nfs41Session session = Nfs41Session.create(connection, "flushes-row-handoff");
        NfsOps nfs = new NfsOps(session);
        byte[] dir = nfs.mkdir(nfs.rootFh(), "row-handoff");
        settle(sync);
        for (int i = 0; i < 3; i++) {
            String name = "f" + i;
            settle(sync); // the last file's rows go to LMDB in the background: not counted here
            Map<String, Double> before = scrape(sync);
            nfs.runOk(new CompoundBuilder().putfh(dir)
                    .openCreate(session.clientId(), nfs.openOwner(), name, OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                            Attrs.builder().mode(0644).build())
                    .write(CompoundBuilder.currentStateid(), 0, new byte[1024])
                    .close(CompoundBuilder.currentStateid()));
            Map<String, Double> after = scrape(sync);
            assertThat(new Flushes(delta(before, after, DIRECTORY), delta(before, after, FILE),
                    delta(before, after, TABLE), delta(before, after, JOURNAL), 0)).as("flushes of " + name)
                    .isEqualTo(new Flushes(1, 1, 0, 1, 0));
            assertThat(delta(before, after, HAND_OFFS)).as("syncs of " + name + " handed to the pool").isEqualTo(1);
            assertThat(delta(before, after, ROW_FLUSHES_HANDED_OFF)).as("journal flushes of " + name + " on the pool")
                    .isEqualTo(1);
        }
        session.close();
    }

    /**
     * A plain compound that removes one file from each of 20 directories (the workload driver's rm -rf sends 64 paths
     * per compound, spread over about 50 directories) still fsyncs every directory it changed before its reply, one
     * after another (the first commits the journal, the others find it done) on its own thread: it has no rows to
     * flush (the removed rows go later), so nothing runs beside them and no pool thread is woken (h-k1; before, one
     * pool thread synced them while the compound's thread waited with nothing to do, and before that each
     * directory's fsync had a pool thread of its own: 20 hand-offs here, about 50 per rm -rf compound).
     */
    @Test
    void syncExportRemovesInTwentyDirectoriesFsyncEveryDirectoryOnTheCompoundsOwnThread() throws Exception {
        NfsConnection connection = sync.connect();
        Nfs41Session session = Nfs41Session.create(connection, "flushes-many-dirs");
        NfsOps nfs = new NfsOps(session);
        byte[] top = nfs.mkdir(nfs.rootFh(), "many-dirs");
        byte[][] dirs = new byte[20][];
        for (int i = 0; i < dirs.length; i++) {
            dirs[i] = nfs.mkdir(top, "d" + i);
            nfs.createFile(dirs[i], "f", new byte[16]);
        }
        settle(sync);
        CompoundBuilder removes = new CompoundBuilder();
        for (byte[] dir : dirs) {
            removes.putfh(dir).remove("f");
        }
        OneOp cost = oneOp(nfs, removes, NfsStatus.OK);
        assertThat(cost.directories()).as("directory fsyncs before the reply").isEqualTo(dirs.length);
        assertThat(cost.table()).as("handle-table flushes before the reply (the rows go later)").isZero();
        assertThat(cost.handOffs()).as("syncs handed to the pool").isZero();
        for (byte[] dir : dirs) {
            assertThat(nfs.readdirNames(dir)).isEmpty();
        }
        session.close();
    }

    /**
     * A CREATE of a directory and a RENAME, each a compound of its own, on a {@code sync} export: each makes its rows
     * durable with one flush of the row journal and no flush or commit of LMDB (before the row journal: two flushes of
     * the handle table and a commit each); the RENAME's record is flushed after its directories' fsyncs (one, or two
     * between directories).
     */
    @Test
    void syncExportMkdirAndRenamesFlushTheRowJournalOnceBesideTheirDirectories() throws Exception {
        NfsConnection connection = sync.connect();
        Nfs41Session session = Nfs41Session.create(connection, "flushes-rename");
        NfsOps nfs = new NfsOps(session);
        byte[] top = nfs.mkdir(nfs.rootFh(), "renames");
        byte[] other = nfs.mkdir(top, "other");
        nfs.createFile(top, "f", new byte[16]);
        settle(sync);
        // directory fsyncs, handle-table flushes, journal flushes, LMDB commits (hand-offs to the pool vary)
        assertThat(flushes(oneOp(nfs, new CompoundBuilder().putfh(top).mkdir("sub"), NfsStatus.OK)))
                .as("CREATE of a directory").containsExactly(1L, 0L, 1L, 0L);
        settle(sync);
        assertThat(flushes(oneOp(nfs, new CompoundBuilder().putfh(top).savefh().putfh(top).rename("f", "g"),
                NfsStatus.OK))).as("RENAME in one directory").containsExactly(1L, 0L, 1L, 0L);
        settle(sync);
        assertThat(flushes(oneOp(nfs, new CompoundBuilder().putfh(top).savefh().putfh(other).rename("g", "h"),
                NfsStatus.OK))).as("RENAME between directories").containsExactly(2L, 0L, 1L, 0L);
        assertThat(nfs.readdirNames(other)).containsExactly("h");
        session.close();
    }

    /** Directory fsyncs, handle-table flushes, row journal flushes and LMDB commits of {@code cost}. */
    private static List<Long> flushes(OneOp cost) {
        return List.of(cost.directories(), cost.table(), cost.journal(), cost.commits());
    }

    /** What one single-operation compound cost: flushes of each kind, handle-table commits and pool hand-offs. */
    private record OneOp(long directories, long files, long table, long journal, long commits, long handOffs) {
    }

    private OneOp oneOp(NfsOps nfs, CompoundBuilder compound, NfsStatus expected) throws Exception {
        return oneOp(sync, nfs, compound, expected);
    }

    private OneOp oneOp(ServerProcess server, NfsOps nfs, CompoundBuilder compound, NfsStatus expected)
            throws Exception {
        Map<String, Double> before = scrape(server);
        assertThat(nfs.run(compound).status()).isEqualTo(expected);
        Map<String, Double> after = scrape(server);
        return new OneOp(delta(before, after, DIRECTORY), delta(before, after, FILE), delta(before, after, TABLE),
                delta(before, after, JOURNAL), delta(before, after, COMMITS), delta(before, after, HAND_OFFS));
    }

    /**
     * A file copied in by a client that sends one operation per compound (fuse-nfs over libnfs, the kernel client:
     * the issue 16 untar and cp -R), each compound counted on its own: only the OPEN-create (its directory, its row:
     * one pool hand-off beside the row's commit) and the COMMIT (the file, on the compound's own thread) flush;
     * the LOOKUP of the missing name, the UNSTABLE WRITEs, CLOSE, SETATTR and GETATTR flush and commit nothing. A
     * change that adds a flush, a handle-table commit or a hand-off to one of them fails here.
     */
    @Test
    void syncExportOneOperationCompoundsOfAFileCopyFlushOnlyAtTheCreateAndTheCommit() throws Exception {
        NfsConnection connection = sync.connect();
        Nfs41Session session = Nfs41Session.create(connection, "flushes-one-op");
        NfsOps nfs = new NfsOps(session);
        byte[] dir = nfs.mkdir(nfs.rootFh(), "one-op");
        settle(sync);
        OneOp none = new OneOp(0, 0, 0, 0, 0, 0);
        for (int i = 0; i < 2; i++) {
            String name = "copied" + i;
            settle(sync);
            assertThat(oneOp(nfs, new CompoundBuilder().putfh(dir).lookup(name), NfsStatus.NOENT))
                    .as("LOOKUP of the missing " + name).isEqualTo(none);
            Map<String, Double> before = scrape(sync);
            CompoundResult opened = nfs.runOk(new CompoundBuilder().putfh(dir)
                    .openCreate(session.clientId(), nfs.openOwner(), name, OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                            Attrs.builder().mode(0600).build())
                    .getfh());
            Map<String, Double> after = scrape(sync);
            assertThat(new OneOp(delta(before, after, DIRECTORY), delta(before, after, FILE),
                    delta(before, after, TABLE), delta(before, after, JOURNAL), delta(before, after, COMMITS),
                    delta(before, after, HAND_OFFS))).as("OPEN-create of " + name)
                    .isEqualTo(new OneOp(1, 0, 0, 1, 0, 1));
            settle(sync); // the background flush commits its rows to LMDB in the background: not counted below
            byte[] file = opened.fileHandle();
            stateid4 open = opened.body(OP_OPEN, OPEN4resok.class).stateid;
            for (int w = 0; w < 2; w++) {
                assertThat(oneOp(nfs, new CompoundBuilder().putfh(file)
                        .write(open, w * 4096L, stable_how4.UNSTABLE4, new byte[4096]), NfsStatus.OK))
                        .as("UNSTABLE WRITE " + w + " of " + name).isEqualTo(none);
            }
            assertThat(oneOp(nfs, new CompoundBuilder().putfh(file).commit(0, 0), NfsStatus.OK))
                    .as("COMMIT of " + name).isEqualTo(new OneOp(0, 1, 0, 0, 0, 0));
            assertThat(oneOp(nfs, new CompoundBuilder().putfh(file).close(open), NfsStatus.OK))
                    .as("CLOSE of " + name).isEqualTo(none);
            assertThat(oneOp(nfs, new CompoundBuilder().putfh(file)
                    .setattr(Attrs.builder().mode(0644).build()), NfsStatus.OK))
                    .as("SETATTR mode of " + name).isEqualTo(none);
            assertThat(oneOp(nfs, new CompoundBuilder().putfh(file).getattr(nfs4_attr.FATTR4_SIZE), NfsStatus.OK))
                    .as("GETATTR of " + name).isEqualTo(none);
        }
        session.close();
    }

    /**
     * On an {@code async} export a plain create costs no flush and no LMDB commit of the handle table before its reply
     * (issue 16 goal 1): its rows wait in memory, visible to every compound (the next compound finds the file by its
     * handle and by its name), and the background flush commits them within about a second, durably, in one commit
     * for all. Both the one-operation OPEN-create of fuse-nfs and the driver's {@code degree k=1} compound
     * (OPEN-create, stable WRITE, CLOSE: one fsync, of the file) are counted.
     */
    @Test
    void asyncExportCreatesFlushAndCommitNothingOfTheHandleTableBeforeTheReply() throws Exception {
        NfsConnection connection = async.connect();
        Nfs41Session session = Nfs41Session.create(connection, "flushes-async-rows");
        NfsOps nfs = new NfsOps(session);
        byte[] dir = nfs.mkdir(nfs.rootFh(), "async-rows");
        settle(async);
        Map<String, Double> start = scrape(async);
        List<byte[]> files = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            settle(async); // the last files' rows go to LMDB in the background: not counted here
            Map<String, Double> before = scrape(async);
            CompoundResult opened = nfs.runOk(new CompoundBuilder().putfh(dir)
                    .openCreate(session.clientId(), nfs.openOwner(), "one-op" + i, OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                            Attrs.builder().mode(0600).build())
                    .getfh());
            Map<String, Double> after = scrape(async);
            assertThat(List.of(delta(before, after, DIRECTORY), delta(before, after, FILE),
                    delta(before, after, TABLE), delta(before, after, COMMITS)))
                    .as("OPEN-create of one-op" + i + ": directory, file, table flushes, table commits")
                    .containsExactly(0L, 0L, 0L, 0L);
            assertThat(after.get(PENDING_ROWS)).as("rows waiting in memory").isPositive();
            files.add(opened.fileHandle());
            nfs.runOk(new CompoundBuilder().putfh(opened.fileHandle())
                    .close(opened.body(OP_OPEN, OPEN4resok.class).stateid));

            settle(async); // the create's rows go to LMDB in the background
            before = scrape(async);
            CompoundResult created = nfs.runOk(new CompoundBuilder().putfh(dir)
                    .openCreate(session.clientId(), nfs.openOwner(), "k1-" + i, OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                            Attrs.builder().mode(0644).build())
                    .write(CompoundBuilder.currentStateid(), 0, new byte[1024])
                    .getfh()
                    .close(CompoundBuilder.currentStateid()));
            after = scrape(async);
            assertThat(List.of(delta(before, after, DIRECTORY), delta(before, after, FILE),
                    delta(before, after, TABLE), delta(before, after, COMMITS)))
                    .as("OPEN-create, WRITE, CLOSE of k1-" + i + ": directory, file, table flushes, table commits")
                    .containsExactly(0L, 1L, 0L, 0L);
            files.add(created.fileHandle());
        }
        // visible to the next compounds at once: by handle and by name
        for (byte[] file : files) {
            assertThat(nfs.run(new CompoundBuilder().putfh(file).getattr(nfs4_attr.FATTR4_TYPE)).status())
                    .isEqualTo(NfsStatus.OK);
        }
        assertThat(nfs.runOk(new CompoundBuilder().putfh(dir).lookup("k1-2").getfh()).fileHandle())
                .isEqualTo(files.get(5));
        settle(async);
        Map<String, Double> end = scrape(async);
        assertThat(end.get(PENDING_ROWS)).isZero();
        assertThat(delta(start, end, TABLE)).as("table flushes of the background commit(s)").isPositive();
        for (byte[] file : files) {
            assertThat(nfs.run(new CompoundBuilder().putfh(file).getattr(nfs4_attr.FATTR4_TYPE)).status())
                    .isEqualTo(NfsStatus.OK);
        }
        session.close();
    }
}
