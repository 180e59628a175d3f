package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;

/**
 * How many directories a plain compound fsyncs before its reply on a file system that makes metadata changes durable
 * in the order they were made (XFS: docs/durability.md, "One log force per compound"; issue 16), against one that does
 * not (tmpfs, where every changed directory is still fsynced), counted through the metrics endpoint
 * ({@code tcnfs_fsyncs_total}, {@code tcnfs_directory_syncs_covered_total}) around single compounds sent through the
 * wire to real servers whose export and state lie on the test mounts.
 * <ul>
 *   <li>REMOVEs in eight directories: one directory fsync on XFS, the directory of the last REMOVE (its log force
 *       holds the seven earlier removals), eight on tmpfs (and on XFS before this change);</li>
 *   <li>the workload driver's one-file compound (OPEN-create, FILE_SYNC WRITE, CLOSE): on XFS the file's fsync alone,
 *       which forces the log up to its creation, logged in one transaction with its directory entry; the directory
 *       and the file on tmpfs (and on XFS before);</li>
 *   <li>a RENAME between directories: one directory fsync on XFS, two on tmpfs (and on XFS before);</li>
 *   <li>REMOVEs in eight directories on an {@code async} XFS export: one directory sync queued and run in the
 *       background (eight before);</li>
 *   <li>on XFS only the directory a compound syncs at its end is opened, then (before 2026-11-27, branch h-stat:
 *       every directory changed, when changed); on an {@code async} export still when changed.</li>
 * </ul>
 * The same rule at a transaction's commit ({@code TransactionSteps.syncTouched}), counted by the syncs it leaves out
 * ({@code tcnfs_directory_syncs_covered_total}, 0 for every transaction before): the workload driver's transaction of
 * 16 new files in one directory (OPEN-create, FILE_SYNC WRITE of 4 KiB, CLOSE each) leaves out its directory, whose
 * last entry the last file's fsync forces; one of REMOVEs in eight directories seven of them on XFS, none on tmpfs;
 * one that empties eight directories and then removes them (rm -rf) the eight, syncing only their parent.
 */
class OrderedLogFlushesIT {
    private static final String DIRECTORY = "tcnfs_fsyncs_total{of=\"directory\"}";
    private static final String FILE = "tcnfs_fsyncs_total{of=\"file\"}";
    private static final String FILE_SYSTEM = "tcnfs_fsyncs_total{of=\"filesystem\"}";
    private static final String OPENS = "tcnfs_directory_sync_opens_total";
    private static final int DIRECTORIES = 8;

    private static ServerProcess xfs;
    private static ServerProcess xfsAsync;
    private static ServerProcess tmpfs;

    @BeforeAll
    static void startServers() throws IOException {
        xfs = ServerProcess.startIn(TestMounts.directoryOn("TCNFS_XFS_DIR", "xfs"), List.of());
        tmpfs = ServerProcess.startIn(TestMounts.directoryOn("TCNFS_TMPFS_DIR", "tmpfs"), List.of());
        xfsAsync = ServerProcess.startIn(TestMounts.directoryOn("TCNFS_XFS_DIR", "xfs"), List.of(), "--data-options",
                "rw,no_root_squash,async");
    }

    @AfterAll
    static void stopServers() throws IOException {
        for (ServerProcess s : new ServerProcess[] {xfs, xfsAsync, tmpfs}) {
            if (s != null) {
                s.close();
            }
        }
    }

    /** Directory and file fsyncs one compound made. */
    private record Fsyncs(long directories, long files) {
    }

    @FunctionalInterface
    private interface Step {
        void run() throws IOException;
    }

    private static Fsyncs around(ServerProcess server, Step step) throws IOException {
        String before = server.scrapeMetrics();
        step.run();
        String after = server.scrapeMetrics();
        return new Fsyncs(delta(before, after, DIRECTORY), delta(before, after, FILE));
    }

    private static long delta(String before, String after, String series) {
        return (long) (ServerProcess.metric(after, series).orElseThrow()
                - ServerProcess.metric(before, series).orElse(0));
    }

    private static NfsOps client(ServerProcess server, String name) throws IOException {
        return new NfsOps(Nfs41Session.create(server.connect(), name));
    }

    /** Eight directories under {@code top}, each with a file {@code f}. */
    private static byte[][] directoriesWithAFile(NfsOps nfs, byte[] top) throws IOException {
        byte[][] dirs = new byte[DIRECTORIES][];
        for (int i = 0; i < dirs.length; i++) {
            dirs[i] = nfs.mkdir(top, "d" + i);
            nfs.createFile(dirs[i], "f", new byte[16]);
        }
        return dirs;
    }

    /** What a {@link Counter} counts around one step. */
    @FunctionalInterface
    private interface Counter<T> {
        T around(ServerProcess server, Step step) throws IOException;
    }

    private static Fsyncs removesInEightDirectories(ServerProcess server) throws IOException {
        return removesInEightDirectories(server, "removes", OrderedLogFlushesIT::around);
    }

    /** REMOVEs in eight directories below {@code top} in one compound, counted by {@code counter}. */
    private static <T> T removesInEightDirectories(ServerProcess server, String top, Counter<T> counter)
            throws IOException {
        NfsOps nfs = client(server, "ordered-" + top);
        byte[][] dirs = directoriesWithAFile(nfs, nfs.mkdir(nfs.rootFh(), top));
        CompoundBuilder removes = new CompoundBuilder();
        for (byte[] dir : dirs) {
            removes.putfh(dir).remove("f");
        }
        T cost = counter.around(server, () -> nfs.runOk(removes));
        for (byte[] dir : dirs) {
            assertThat(nfs.readdirNames(dir)).isEmpty();
        }
        nfs.session().close();
        return cost;
    }

    private static Fsyncs oneFileCompound(ServerProcess server) throws IOException {
        NfsOps nfs = client(server, "ordered-one-file");
        byte[] dir = nfs.mkdir(nfs.rootFh(), "one-file");
        Fsyncs cost = around(server, () -> nfs.runOk(new CompoundBuilder().putfh(dir)
                .openCreate(nfs.session().clientId(), nfs.openOwner(), "k1", OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                        Attrs.builder().mode(0644).build())
                .write(CompoundBuilder.currentStateid(), 0, new byte[1024])
                .close(CompoundBuilder.currentStateid())));
        assertThat(nfs.read(nfs.lookup(dir, "k1"))).hasSize(1024);
        nfs.session().close();
        return cost;
    }

    private static Fsyncs renameBetweenDirectories(ServerProcess server) throws IOException {
        NfsOps nfs = client(server, "ordered-rename");
        byte[] top = nfs.mkdir(nfs.rootFh(), "renames");
        byte[] from = nfs.mkdir(top, "from");
        byte[] to = nfs.mkdir(top, "to");
        nfs.createFile(from, "f", new byte[16]);
        Fsyncs cost = around(server, () -> nfs.runOk(new CompoundBuilder().putfh(from).savefh().putfh(to)
                .rename("f", "g")));
        assertThat(nfs.readdirNames(to)).containsExactly("g");
        nfs.session().close();
        return cost;
    }

    /** Directory syncs {@code step} left out because one sync on an ordered log covered them. */
    private static long coveredAround(ServerProcess server, Step step) throws IOException {
        return countedAround(server, "tcnfs_directory_syncs_covered_total", step);
    }

    /** How much the counter {@code series} grew during {@code step}. */
    private static long countedAround(ServerProcess server, String series, Step step) throws IOException {
        double before = ServerProcess.metric(server.scrapeMetrics(), series).orElse(0);
        step.run();
        return (long) (server.metric(series) - before);
    }

    private static void runTransaction(NfsOps nfs, CompoundBuilder ops) throws IOException {
        CompoundResult r = nfs.session().executeTransaction(ops);
        assertThat(r.status()).as("the transaction's status").isEqualTo(NfsStatus.OK);
    }

    @Test
    void onXfsATransactionOfSixteenNewFilesInADirectoryLeavesTheDirectorysSyncToItsLastFile() throws Exception {
        NfsOps nfs = client(xfs, "ordered-txn-files");
        byte[] dir = nfs.mkdir(nfs.rootFh(), "txn-files");
        byte[] data = new byte[4096];
        Arrays.fill(data, (byte) 7);
        CompoundBuilder c = new CompoundBuilder();
        for (int i = 0; i < 16; i++) {
            c.putfh(dir).openCreate(nfs.session().clientId(), nfs.openOwner(), "f" + i,
                    OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().mode(0644).build())
                    .write(CompoundBuilder.currentStateid(), 0, data)
                    .close(CompoundBuilder.currentStateid());
        }
        assertThat(coveredAround(xfs, () -> runTransaction(nfs, c))).as("directory syncs left out").isEqualTo(1);
        for (int i = 0; i < 16; i++) {
            assertThat(nfs.read(nfs.lookup(dir, "f" + i))).isEqualTo(data);
        }
        nfs.session().close();
    }

    private static long transactionOfRemovesInEightDirectories(ServerProcess server) throws IOException {
        NfsOps nfs = client(server, "ordered-txn-removes");
        byte[][] dirs = directoriesWithAFile(nfs, nfs.mkdir(nfs.rootFh(), "txn-removes"));
        CompoundBuilder removes = new CompoundBuilder();
        for (byte[] dir : dirs) {
            removes.putfh(dir).remove("f");
        }
        long covered = coveredAround(server, () -> runTransaction(nfs, removes));
        for (byte[] dir : dirs) {
            assertThat(nfs.readdirNames(dir)).isEmpty();
        }
        nfs.session().close();
        return covered;
    }

    @Test
    void onXfsATransactionOfRemovesInEightDirectoriesSyncsOnlyTheDirectoryOfTheLast() throws Exception {
        assertThat(transactionOfRemovesInEightDirectories(xfs)).isEqualTo(DIRECTORIES - 1);
    }

    @Test
    void onXfsATransactionThatEmptiesAndRemovesEightDirectoriesSyncsOnlyTheirParent() throws Exception {
        NfsOps nfs = client(xfs, "ordered-txn-rm-r");
        byte[] top = nfs.mkdir(nfs.rootFh(), "txn-rm-r");
        byte[][] dirs = directoriesWithAFile(nfs, top);
        CompoundBuilder rmR = new CompoundBuilder();
        for (byte[] dir : dirs) {
            rmR.putfh(dir).remove("f");
        }
        rmR.putfh(top);
        for (int i = 0; i < DIRECTORIES; i++) {
            rmR.remove("d" + i);
        }
        assertThat(coveredAround(xfs, () -> runTransaction(nfs, rmR))).as("the removed directories' syncs left out")
                .isEqualTo(DIRECTORIES);
        assertThat(nfs.readdirNames(top)).isEmpty();
        nfs.session().close();
    }

    @Test
    void onTmpfsATransactionOfRemovesInEightDirectoriesStillSyncsEveryDirectory() throws Exception {
        assertThat(transactionOfRemovesInEightDirectories(tmpfs)).isZero();
    }

    @Test
    void onXfsACompoundOfRemovesInEightDirectoriesFsyncsOnlyTheDirectoryOfTheLast() throws Exception {
        String covered = "tcnfs_directory_syncs_covered_total";
        double coveredBefore = ServerProcess.metric(xfs.scrapeMetrics(), covered).orElse(0);
        assertThat(removesInEightDirectories(xfs)).isEqualTo(new Fsyncs(1, 0));
        assertThat(xfs.metric(covered) - coveredBefore).isEqualTo(DIRECTORIES - 1);
    }

    /**
     * On an {@code async} export the directory syncs wait in the background queue; on XFS only the directory of the
     * compound's last change is queued (the background flush syncs it within a second).
     */
    @Test
    void onXfsAnAsyncCompoundOfRemovesInEightDirectoriesQueuesOnlyTheDirectoryOfTheLast() throws Exception {
        String directory = DIRECTORY;
        NfsOps nfs = client(xfsAsync, "ordered-async-removes");
        byte[][] dirs = directoriesWithAFile(nfs, nfs.mkdir(nfs.rootFh(), "async-removes"));
        xfsAsync.awaitNoLateWork();
        double before = xfsAsync.metric(directory);
        CompoundBuilder removes = new CompoundBuilder();
        for (byte[] dir : dirs) {
            removes.putfh(dir).remove("f");
        }
        nfs.runOk(removes);
        xfsAsync.awaitNoLateWork();
        assertThat(xfsAsync.metric(directory) - before).as("directory fsyncs, in the background").isEqualTo(1);
        nfs.session().close();
    }

    /**
     * Of the eight directories whose entries a compound changed, only the one it syncs is opened on XFS (one
     * {@code open} and {@code close} less for each of the seven others); all eight on tmpfs, where all are synced.
     */
    @Test
    void onXfsACompoundOfRemovesInEightDirectoriesOpensOnlyTheDirectoryItSyncs() throws Exception {
        Counter<Long> opens = (server, step) -> countedAround(server, OPENS, step);
        assertThat(removesInEightDirectories(xfs, "opened", opens)).as("directories opened on XFS").isEqualTo(1);
        assertThat(removesInEightDirectories(tmpfs, "opened", opens)).as("on tmpfs").isEqualTo(DIRECTORIES);
    }

    /**
     * On an {@code async} export a directory's sync waits in the background queue, after the compound: the directory is
     * opened when its entries change, as before, not when the queue runs the sync (by then {@code rm -rf} has removed
     * it, and its path holds nothing: a first version of this change synced the whole file system then, one
     * {@code syncfs} per removed directory through fuse-nfs).
     */
    @Test
    void onXfsAnAsyncRemoveOfADirectoryBeforeItsQueuedSyncRunsSyncsNoFileSystem() throws Exception {
        NfsOps nfs = client(xfsAsync, "ordered-removed-queued");
        byte[] top = nfs.mkdir(nfs.rootFh(), "removed-queued");
        byte[] dir = nfs.mkdir(top, "d");
        nfs.createFile(dir, "f", new byte[16]);
        xfsAsync.awaitNoLateWork();
        String before = xfsAsync.scrapeMetrics();
        nfs.runOk(new CompoundBuilder().putfh(dir).remove("f"));
        nfs.runOk(new CompoundBuilder().putfh(top).remove("d"));
        xfsAsync.awaitNoLateWork();
        String after = xfsAsync.scrapeMetrics();
        assertThat(delta(before, after, FILE_SYSTEM)).as("syncfs").isZero();
        assertThat(delta(before, after, OPENS)).as("directories opened for their syncs").isEqualTo(2);
        assertThat(nfs.readdirNames(top)).isEmpty();
        nfs.session().close();
    }

    @Test
    void onTmpfsACompoundOfRemovesInEightDirectoriesStillFsyncsEveryDirectory() throws Exception {
        assertThat(removesInEightDirectories(tmpfs)).isEqualTo(new Fsyncs(DIRECTORIES, 0));
    }

    @Test
    void onXfsAnOpenCreateWriteCloseCompoundFsyncsOnlyItsFile() throws Exception {
        assertThat(oneFileCompound(xfs)).isEqualTo(new Fsyncs(0, 1));
    }

    @Test
    void onTmpfsAnOpenCreateWriteCloseCompoundStillFsyncsItsDirectoryAndItsFile() throws Exception {
        assertThat(oneFileCompound(tmpfs)).isEqualTo(new Fsyncs(1, 1));
    }

    @Test
    void onXfsARenameBetweenDirectoriesFsyncsOneOfThem() throws Exception {
        assertThat(renameBetweenDirectories(xfs)).isEqualTo(new Fsyncs(1, 0));
    }

    @Test
    void onTmpfsARenameBetweenDirectoriesStillFsyncsBoth() throws Exception {
        assertThat(renameBetweenDirectories(tmpfs)).isEqualTo(new Fsyncs(2, 0));
    }
}
