package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
 * The work of a transaction over many new files, the workload driver's writefiles compound (16 x OPEN-create,
 * FILE_SYNC WRITE of 4 KiB, CLOSE), against a plain compound of the same shape, through the wire to a real server on
 * the XFS test mount (issue 16, "a transaction's own CPU"):
 * <ul>
 *   <li>the commit fsyncs each file through the descriptor its stable WRITE used, kept in the transaction's buffer as
 *       a plain compound's is, counted as the file system's file fsyncs ({@code tcnfs_fsyncs_total{of="file"}}: 16;
 *       0 before, when the commit looked at each file by its path, opened it again and fsynced that);</li>
 *   <li>the system calls the server makes for it ({@code strace -f -c} attached to the server around one compound,
 *       after one warm-up compound of each kind): the transaction looks at each new name once before it runs (the
 *       backup budget's check and the undo's preparation share that {@code lstat}; they made three before, and the
 *       commit a fourth) and opens no file again, so it makes at most two {@code statx} per file and half an
 *       {@code openat} per file more than the plain compound (4.2 and 1.0 before);</li>
 *   <li>a transaction of that shape whose eleventh OPEN fails (its name is a directory) leaves nothing of the ten
 *       files before it, releases what their WRITEs kept, and the next transaction in the directory succeeds.</li>
 * </ul>
 */
class TransactionOfNewFilesWorkIT {
    private static final int FILES = 16;
    private static final String FILE_FSYNCS = "tcnfs_fsyncs_total{of=\"file\"}";
    private static final String CALLS = "statx,openat,close,fsync";

    private static ServerProcess server;

    @BeforeAll
    static void startServer() throws IOException {
        server = ServerProcess.startIn(TestMounts.directoryOn("TCNFS_XFS_DIR", "xfs"), List.of());
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private static NfsOps client(String name) throws IOException {
        return new NfsOps(Nfs41Session.create(server.connect(), name));
    }

    private static byte[] data() {
        byte[] data = new byte[4096];
        Arrays.fill(data, (byte) 7);
        return data;
    }

    /** The driver's compound: {@code count} x OPEN-create, FILE_SYNC WRITE of {@link #data()}, CLOSE in {@code dir}. */
    private static CompoundBuilder newFiles(NfsOps nfs, byte[] dir, String prefix, int count) {
        CompoundBuilder c = new CompoundBuilder();
        for (int i = 0; i < count; i++) {
            c.putfh(dir).openCreate(nfs.session().clientId(), nfs.openOwner(), prefix + i,
                    OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().mode(0644).build())
                    .write(CompoundBuilder.currentStateid(), 0, data())
                    .close(CompoundBuilder.currentStateid());
        }
        return c;
    }

    private static void runTransaction(NfsOps nfs, CompoundBuilder ops) throws IOException {
        CompoundResult r = nfs.session().executeTransaction(ops);
        assertThat(r.status()).as("the transaction's status").isEqualTo(NfsStatus.OK);
    }

    @Test
    void aTransactionOfSixteenNewFilesFsyncsEachThroughTheDescriptorItsWriteUsed() throws Exception {
        NfsOps nfs = client("txn-work-fsyncs");
        byte[] dir = nfs.mkdir(nfs.rootFh(), "fsyncs");
        double before = ServerProcess.metric(server.scrapeMetrics(), FILE_FSYNCS).orElse(0);
        runTransaction(nfs, newFiles(nfs, dir, "f", FILES));
        assertThat(server.metric(FILE_FSYNCS) - before).as("file fsyncs through the WRITEs' descriptors")
                .isEqualTo(FILES);
        for (int i = 0; i < FILES; i++) {
            assertThat(nfs.read(nfs.lookup(dir, "f" + i))).isEqualTo(data());
        }
        nfs.session().close();
    }

    @Test
    void aTransactionOfSixteenNewFilesStatsAndOpensNearlyAsOftenAsAPlainCompound() throws Exception {
        assumeTrue(SystemCalls.available(), "strace is installed");
        NfsOps nfs = client("txn-work-calls");
        byte[] dir = nfs.mkdir(nfs.rootFh(), "calls");
        nfs.runOk(newFiles(nfs, dir, "warm-plain-", FILES));
        runTransaction(nfs, newFiles(nfs, dir, "warm-txn-", FILES));
        Map<String, Long> plain = SystemCalls.of(server, CALLS, () -> nfs.runOk(newFiles(nfs, dir, "plain-",
                FILES)));
        Map<String, Long> txn = SystemCalls.of(server, CALLS, () -> runTransaction(nfs, newFiles(nfs, dir, "txn-",
                FILES)));
        long moreStats = txn.getOrDefault("statx", 0L) - plain.getOrDefault("statx", 0L);
        long moreOpens = txn.getOrDefault("openat", 0L) - plain.getOrDefault("openat", 0L);
        // up to two per file for the transaction's own work, and two more since a plain compound's OPEN uses the
        // directory its PUTFH resolved and its WRITE the file the OPEN created (CompoundScope.continueOffered), which a
        // transaction's OPEN and WRITE resolve again; and no more than the transaction made before the plain
        // compound learnt either (114 for 16 files)
        assertThat(moreStats).as("statx of the transaction beyond the plain compound's (plain %s, transaction %s)",
                plain, txn).isLessThanOrEqualTo(4L * FILES);
        assertThat(txn.getOrDefault("statx", 0L)).as("statx of the transaction (%s)", txn)
                .isLessThanOrEqualTo(7L * FILES + 2);
        assertThat(moreOpens).as("openat of the transaction beyond the plain compound's (plain %s, transaction %s)",
                plain, txn).isLessThanOrEqualTo(FILES / 2);
        assertThat(nfs.readdirNames(dir)).hasSize(4 * FILES);
        nfs.session().close();
    }

    @Test
    void aTransactionOfNewFilesThatFailsAtItsEleventhLeavesNothingOfTheTenBefore() throws Exception {
        NfsOps nfs = client("txn-work-rollback");
        byte[] dir = nfs.mkdir(nfs.rootFh(), "rollback");
        Files.createDirectory(server.exportDir().resolve("rollback").resolve("f10")); // out of band: OPEN fails
        CompoundResult r = nfs.session().executeTransaction(newFiles(nfs, dir, "f", FILES));
        assertThat(r.status()).as("the transaction's status").isNotEqualTo(NfsStatus.OK);
        assertThat(nfs.readdirNames(dir)).containsExactly("f10");
        runTransaction(nfs, newFiles(nfs, dir, "g", FILES));
        assertThat(nfs.readdirNames(dir)).hasSize(FILES + 1);
        for (int i = 0; i < FILES; i++) {
            assertThat(nfs.read(nfs.lookup(dir, "g" + i))).isEqualTo(data());
        }
        nfs.session().close();
    }
}
