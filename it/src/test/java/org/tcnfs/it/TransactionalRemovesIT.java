package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.nfs4_attr;

/**
 * What a transaction of many REMOVEs (the workload driver's rm -rf sends 64 a compound, in about 50 directories)
 * syncs at its commit, and that its rollback puts back the very objects it removed (issue 16), through the wire to
 * real servers whose export and state lie on the XFS and tmpfs test mounts, counted through the metrics endpoint:
 * <ul>
 *   <li>on XFS, which makes metadata changes durable in order, the commit fsyncs only the directory of the last REMOVE
 *       (its log force holds every earlier removal: docs/durability.md, "One log force per compound"); the other
 *       seven count as covered (before: every directory, each handed to an fsync pool thread);</li>
 *   <li>on tmpfs every directory is still synced, one after another on the compound's own thread (before: seven
 *       hand-offs to the pool);</li>
 *   <li>on XFS such a transaction of 16 REMOVEs in 16 directories looks at each directory once more than a plain
 *       compound of the same REMOVEs (the {@code lstat} that saves its times for the undo, which also tells its commit
 *       its device) and at each victim once (for the undo), plus a few per compound: the commit looks again only at
 *       the directory it syncs ({@code statx} counted with {@code strace}: 37 more than plain; 52 before, when the
 *       commit looked at every directory again);</li>
 *   <li>a transaction of 16 REMOVEs of empty directories looks into each directory before and after the rename that
 *       removes it with four system calls each (open, {@code getdents64} until the end, close), where a {@code
 *       DirectoryStream} made nine: 177 calls that open, look into or close a directory more than a plain compound of
 *       the same REMOVEs (which {@code rmdir}s), 289 before;</li>
 *   <li>a transaction that removes a file, a file with a second link and an empty directory and then fails puts them
 *       back: the same objects (file id, link count, contents), answering to the handles of before.</li>
 * </ul>
 */
class TransactionalRemovesIT {
    private static final String COVERED = "tcnfs_directory_syncs_covered_total";
    private static final String HAND_OFFS = "tcnfs_fsync_pool_handoffs_total";
    private static final int DIRECTORIES = 8;
    /** The system calls that open, look into and close a directory ({@code strace -e trace=}). */
    private static final String DIRECTORY_LOOKS = "openat,close,dup,fcntl,newfstatat,getdents64";
    private static final byte[] DATA = "kept by the rollback".getBytes(StandardCharsets.UTF_8);

    private static ServerProcess xfs;
    private static ServerProcess tmpfs;

    @BeforeAll
    static void startServers() throws IOException {
        xfs = ServerProcess.startIn(TestMounts.directoryOn("TCNFS_XFS_DIR", "xfs"), List.of());
        tmpfs = ServerProcess.startIn(TestMounts.directoryOn("TCNFS_TMPFS_DIR", "tmpfs"), List.of());
    }

    @AfterAll
    static void stopServers() throws IOException {
        for (ServerProcess s : new ServerProcess[] {xfs, tmpfs}) {
            if (s != null) {
                s.close();
            }
        }
    }

    /** Directory syncs a commit left out as covered, and syncs handed to the fsync pool, around one transaction. */
    private record Syncs(long covered, long handOffs) {
    }

    /**
     * Makes eight directories with a file each (and waits until the background flush of their rows is done), then
     * sends one transaction that removes the eight files and returns what it cost.
     */
    private static Syncs transactionOfRemovesInEightDirectories(ServerProcess server, String name) throws Exception {
        NfsOps nfs = new NfsOps(Nfs41Session.create(server.connect(), name));
        byte[] top = nfs.mkdir(nfs.rootFh(), name);
        byte[][] dirs = new byte[DIRECTORIES][];
        CompoundBuilder removes = new CompoundBuilder();
        for (int i = 0; i < dirs.length; i++) {
            dirs[i] = nfs.mkdir(top, "d" + i);
            nfs.createFile(dirs[i], "f", new byte[16]);
            removes.putfh(dirs[i]).remove("f");
        }
        server.awaitNoLateWork();
        String before = server.scrapeMetrics();
        CompoundResult txn = nfs.session().executeTransaction(removes);
        String after = server.scrapeMetrics();
        assertThat(txn.status()).as("%s", txn).isEqualTo(NfsStatus.OK);
        for (byte[] dir : dirs) {
            assertThat(nfs.readdirNames(dir)).isEmpty();
        }
        nfs.session().close();
        return new Syncs(delta(before, after, COVERED), delta(before, after, HAND_OFFS));
    }

    private static long delta(String before, String after, String series) {
        return (long) (ServerProcess.metric(after, series).orElse(0) - ServerProcess.metric(before, series).orElse(0));
    }

    @Test
    void onXfsATransactionOfRemovesInEightDirectoriesFsyncsOnlyTheDirectoryOfTheLastAtItsCommit() throws Exception {
        Syncs cost = transactionOfRemovesInEightDirectories(xfs, "txn-removes-xfs");
        assertThat(cost.covered()).as("directory syncs covered by the last one").isEqualTo(DIRECTORIES - 1);
        assertThat(cost.handOffs()).as("syncs handed to the pool (the backups' beside the record)")
                .isLessThanOrEqualTo(1);
    }

    @Test
    void onTmpfsATransactionOfRemovesInEightDirectoriesSyncsThemOneAfterAnotherWithoutHandingThemToThePool()
            throws Exception {
        Syncs cost = transactionOfRemovesInEightDirectories(tmpfs, "txn-removes-tmpfs");
        assertThat(cost.covered()).as("directory syncs covered").isZero();
        assertThat(cost.handOffs()).as("syncs handed to the pool (the backups' beside the record)")
                .isLessThanOrEqualTo(1);
    }

    @Test
    void onXfsATransactionOfRemovesInSixteenDirectoriesMakesAtMostSixStatxPerRemovalAndTwelveBesides() throws Exception {
        // 102 (a plain compound: 49); 115 (plain: 65) before the commit took the directories' devices from the
        // undo's preparation (h-txn4)
        assumeTrue(SystemCalls.available(), "strace is installed");
        int count = 2 * DIRECTORIES;
        Calls calls = callsOfRemoves("stats", count, "statx", "statx",
                (nfs, dir, name) -> nfs.createFile(dir, name, new byte[16]));
        assertThat(calls.transaction()).as("statx of the transaction (a plain compound's: %s)", calls.plain())
                .isLessThanOrEqualTo(6L * count + 12);
    }

    @Test
    void aTransactionThatRemovesSixteenEmptyDirectoriesLooksIntoEachWithAFewSystemCallsBeyondAPlainCompounds()
            throws Exception {
        assumeTrue(SystemCalls.available(), "strace is installed");
        int count = 2 * DIRECTORIES;
        Calls calls = callsOfRemoves("empty", count, DIRECTORY_LOOKS, "total",
                (nfs, dir, name) -> nfs.mkdir(dir, name));
        assertThat(calls.transaction() - calls.plain()).as("calls of the transaction beyond the plain compound's")
                .isLessThanOrEqualTo(12L * count + 16);
    }

    /** Makes the victim {@code name} in {@code dir}. */
    @FunctionalInterface
    private interface Victim {
        void make(NfsOps nfs, byte[] dir, String name) throws Exception;
    }

    /** The system calls counted while a plain compound of removes ran, and while a transaction of them did. */
    private record Calls(long plain, long transaction) {
    }

    /**
     * Makes {@code count} directories under {@code top}, each with four victims ({@code victim}), removes one of each
     * by a plain compound and one by a transaction to warm up, then counts the system calls {@code calls}
     * ({@link SystemCalls}) of the server during a plain compound of such removes and during a transaction of them,
     * by the count {@code key}. Every directory is empty after.
     */
    private Calls callsOfRemoves(String top, int count, String calls, String key, Victim victim)
            throws Exception {
        NfsOps nfs = new NfsOps(Nfs41Session.create(xfs.connect(), "txn-removes-" + top));
        byte[] parent = nfs.mkdir(nfs.rootFh(), top);
        List<String> names = List.of("warm-plain", "warm-txn", "plain", "txn");
        byte[][] dirs = new byte[count][];
        for (int i = 0; i < count; i++) {
            dirs[i] = nfs.mkdir(parent, "d" + i);
            for (String name : names) {
                victim.make(nfs, dirs[i], name);
            }
        }
        nfs.runOk(removesIn(dirs, "warm-plain"));
        assertThat(nfs.session().executeTransaction(removesIn(dirs, "warm-txn")).status()).isEqualTo(NfsStatus.OK);
        xfs.awaitNoLateWork();
        Map<String, Long> plain = SystemCalls.of(xfs, calls, () -> nfs.runOk(removesIn(dirs, "plain")));
        xfs.awaitNoLateWork();
        Map<String, Long> txn = SystemCalls.of(xfs, calls, () -> assertThat(nfs.session()
                .executeTransaction(removesIn(dirs, "txn")).status()).isEqualTo(NfsStatus.OK));
        for (byte[] dir : dirs) {
            assertThat(nfs.readdirNames(dir)).isEmpty();
        }
        nfs.session().close();
        System.out.printf("TransactionalRemovesIT %s: plain %s, transaction %s%n", top, plain, txn);
        return new Calls(plain.getOrDefault(key, 0L), txn.getOrDefault(key, 0L));
    }

    /** PUTFH and REMOVE of {@code name} in each of {@code dirs}. */
    private static CompoundBuilder removesIn(byte[][] dirs, String name) {
        CompoundBuilder c = new CompoundBuilder();
        for (byte[] dir : dirs) {
            c.putfh(dir).remove(name);
        }
        return c;
    }

    @Test
    void aTransactionThatRemovesFilesAndAnEmptyDirectoryThenFailsPutsBackTheSameObjectsUnderTheirHandles()
            throws Exception {
        NfsOps nfs = new NfsOps(Nfs41Session.create(xfs.connect(), "txn-removes-rollback"));
        byte[] top = nfs.mkdir(nfs.rootFh(), "rollback");
        byte[] file = nfs.createFile(top, "f", DATA);
        byte[] linked = nfs.createFile(top, "g", DATA);
        nfs.runOk(new CompoundBuilder().putfh(linked).savefh().putfh(top).link("h"));
        byte[] dir = nfs.mkdir(top, "e");
        long fileId = nfs.getattr(file, nfs4_attr.FATTR4_FILEID).fileid();
        long linkedId = nfs.getattr(linked, nfs4_attr.FATTR4_FILEID).fileid();
        long dirId = nfs.getattr(dir, nfs4_attr.FATTR4_FILEID).fileid();

        CompoundResult txn = nfs.session().executeTransaction(new CompoundBuilder().putfh(top).remove("f").remove("g")
                .remove("e").remove("missing"));

        assertThat(txn.status()).as("%s", txn).isEqualTo(NfsStatus.NOENT);
        assertThat(nfs.readdirNames(top)).containsExactlyInAnyOrder("f", "g", "h", "e");
        assertThat(nfs.getattr(nfs.lookup(top, "f"), nfs4_attr.FATTR4_FILEID).fileid()).isEqualTo(fileId);
        assertThat(nfs.getattr(file, nfs4_attr.FATTR4_NUMLINKS).numlinks()).as("no kept link left").isEqualTo(1);
        assertThat(nfs.read(file)).as("the file, by its handle of before").isEqualTo(DATA);
        assertThat(nfs.getattr(nfs.lookup(top, "g"), nfs4_attr.FATTR4_FILEID).fileid()).isEqualTo(linkedId);
        assertThat(nfs.getattr(linked, nfs4_attr.FATTR4_NUMLINKS).numlinks()).as("g and h").isEqualTo(2);
        assertThat(nfs.read(linked)).as("the linked file, by its handle of before").isEqualTo(DATA);
        assertThat(nfs.getattr(nfs.lookup(top, "e"), nfs4_attr.FATTR4_FILEID).fileid()).isEqualTo(dirId);
        assertThat(nfs.getattr(dir, nfs4_attr.FATTR4_FILEID).fileid()).as("the directory, by its handle of before")
                .isEqualTo(dirId);
        nfs.session().close();
    }
}
