package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session.SpanningTransaction;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;

/**
 * A transaction whose backups would not fit the disk is refused up front (issue 15; setting
 * {@code backup-disk-reserve}; docs/protocol.md "Caps"): the server runs on a small tmpfs of its own, mounted
 * under a fresh temporary directory (root only, else the tests are skipped), with its free space set before
 * each test by a ballast file. A compound whose backups (the planner's estimate: a truncation to 0 saves the
 * whole file) fit the free space but not the free space less the reserve gets NFS4ERR_NOSPC at its first
 * operation after SEQUENCE and changes nothing; in a transaction that spans compounds the whole transaction is
 * rolled back. On the old server the backup fitted the disk, the compound committed and left the file system
 * short of its reserve.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BackupDiskSpaceIT {
    private static final long MIB = 1L << 20;
    private static final long FS_SIZE = 48 * MIB;
    private static final long BIG = 12 * MIB;
    private static final long RESERVE = 8 * MIB;
    /** Free space before a test: more than the big file's backup, less than that backup plus the reserve. */
    private static final long FREE = BIG + RESERVE / 2;

    private Path mountPoint;
    private boolean mounted;
    private ServerProcess server;
    private ItSession session;
    private NfsOps nfs;
    private Path dirPath;
    private byte[] dir;
    private Path ballast;

    @BeforeAll
    void mountAndStart() throws IOException, InterruptedException {
        mountPoint = ServerProcess.freshWorkDirectory("disk-space-");
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + FS_SIZE + ",mode=0755",
                "tcnfs-it-nospc", mountPoint.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean done = p.waitFor(30, TimeUnit.SECONDS);
        assumeTrue(done && p.exitValue() == 0,
                "cannot mount a small tmpfs here (needs root and mount permission): " + out.trim());
        mounted = true;
        server = ServerProcess.startIn(mountPoint, List.of(), "--backup-disk-reserve", Long.toString(RESERVE));
        ballast = mountPoint.resolve("ballast");
    }

    @AfterAll
    void stopAndUnmount() throws IOException, InterruptedException {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (mounted) {
                Process p = new ProcessBuilder("umount", mountPoint.toString()).redirectErrorStream(true).start();
                p.getInputStream().readAllBytes();
                p.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    @BeforeEach
    void freshDirectory(TestInfo test) throws IOException {
        String name = test.getTestMethod().orElseThrow().getName();
        dirPath = Files.createDirectories(server.exportDir().resolve(name));
        session = ItSession.open(server, "disk-space");
        nfs = session.nfs();
        dir = nfs.lookup(nfs.rootFh(), name);
    }

    @AfterEach
    void cleanUp() throws IOException {
        if (session != null) {
            session.close();
        }
        Files.deleteIfExists(ballast);
        try (var files = Files.list(dirPath)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(f);
            }
        }
    }

    @Test
    void aTransactionWhoseBackupsWouldEatTheDiskReserveIsRefusedWithNospcAndChangesNothing() throws IOException {
        Path big = randomFile("big", BIG);
        String before = sha256(big);
        leaveFree(FREE);

        CompoundResult r = nfs.session().executeTransaction(new CompoundBuilder().putfh(dir)
                .mkdir("created-first").putfh(dir).lookup("big").setattr(Attrs.builder().size(0).build()));

        assertThat(r.status()).isEqualTo(NfsStatus.NOSPC);
        assertThat(r.response().resarray).as("refused at the first operation after SEQUENCE").hasSize(2);
        assertThat(Files.size(big)).isEqualTo(BIG);
        assertThat(sha256(big)).isEqualTo(before);
        assertThat(dirPath.resolve("created-first")).doesNotExist();
        assertThat(server.scrapeMetrics()).contains("tcnfs_txn_backup_budget_refusals_total");
    }

    @Test
    void aTransactionWhoseBackupsFitBesideTheReserveCommits() throws IOException {
        Path small = randomFile("small", MIB);
        leaveFree(FREE);

        CompoundResult r = nfs.session().executeTransaction(new CompoundBuilder().putfh(dir).lookup("small")
                .setattr(Attrs.builder().size(0).build()));

        assertThat(r.status()).isEqualTo(NfsStatus.OK);
        assertThat(Files.size(small)).isZero();
    }

    @Test
    void aCompoundOfASpanningTransactionWhoseBackupsWouldNotFitRollsBackTheWholeTransaction() throws IOException {
        Path big = randomFile("big", BIG);
        String before = sha256(big);
        leaveFree(FREE);

        SpanningTransaction txn = nfs.session().beginTransaction(0);
        assertThat(NfsStatus.of(txn.beginStatus())).isEqualTo(NfsStatus.OK);
        CompoundResult first = txn.execute(new CompoundBuilder().putfh(dir)
                .openCreate(nfs.session().clientId(), "o-fresh".getBytes(StandardCharsets.UTF_8), "fresh",
                        OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().size(0).mode(0644).build())
                .write(CompoundBuilder.currentStateid(), 0, "fresh".getBytes(StandardCharsets.UTF_8))
                .close(CompoundBuilder.currentStateid()));
        assertThat(first.status()).isEqualTo(NfsStatus.OK);

        CompoundResult second = txn.execute(new CompoundBuilder().putfh(dir).lookup("big")
                .setattr(Attrs.builder().size(0).build()));

        assertThat(second.status()).isEqualTo(NfsStatus.NOSPC);
        assertThat(second.response().resarray).as("refused at the first operation after SEQUENCE").hasSize(2);
        assertThat(NfsStatus.of(txn.commit())).as("the transaction has ended").isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(dirPath.resolve("fresh")).doesNotExist();
        assertThat(sha256(big)).isEqualTo(before);
        assertThat(nfs.readdirNames(dir)).containsExactly("big");
    }

    // ---- helpers

    private Path randomFile(String name, long size) throws IOException {
        Path file = dirPath.resolve(name);
        Random random = new Random(size);
        byte[] chunk = new byte[(int) MIB];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long done = 0; done < size; done += chunk.length) {
                random.nextBytes(chunk);
                ch.write(ByteBuffer.wrap(chunk, 0, (int) Math.min(chunk.length, size - done)));
            }
            ch.force(true);
        }
        return file;
    }

    /** Writes a ballast file so that about {@code free} bytes of the tmpfs stay free. */
    private void leaveFree(long free) throws IOException {
        long usable = Files.getFileStore(mountPoint).getUsableSpace();
        assertThat(usable).as("free space before the ballast").isGreaterThan(free);
        long fill = usable - free;
        byte[] chunk = new byte[(int) MIB];
        try (FileChannel ch = FileChannel.open(ballast, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long done = 0; done < fill; done += chunk.length) {
                ch.write(ByteBuffer.wrap(chunk, 0, (int) Math.min(chunk.length, fill - done)));
            }
        }
        long left = Files.getFileStore(mountPoint).getUsableSpace();
        assertThat(left).as("free space after the ballast").isBetween(free - MIB, free + MIB);
    }

    private static String sha256(Path file) throws IOException {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            try (FileChannel ch = FileChannel.open(file)) {
                ByteBuffer buf = ByteBuffer.allocate((int) MIB);
                while (ch.read(buf) > 0) {
                    buf.flip();
                    md.update(buf);
                    buf.clear();
                }
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
