package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_MODE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SIZE;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_owner4;
import org.tcnfs.nfs4.xdr.openflag4;
import org.tcnfs.nfs4.xdr.verifier4;
import org.tcnfs.txn.CrashPoints;

/**
 * The light path of transactions (docs/durability.md, "The light path"; issue 16): a transactional compound whose
 * one change is atomic by itself (REMOVE of a file or an empty directory, LINK, SETATTR of one call's attributes,
 * OPEN-create where the file system creates atomically, WRITE within one page) and is followed only by operations that cannot fail for
 * the client's arguments commits without a recovery record or durable backups, and still leaves all or nothing of
 * itself when the server dies at any point: through the wire, against the real server process, with its crash
 * points ({@code -Dtcnfs.crash-point}) and its metrics ({@code tcnfs_txn_light_total}).
 */
class LightPathIT {
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);
    private static final byte[] OLD = "old contents".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NEW = "new contents!".getBytes(StandardCharsets.UTF_8);

    private ServerProcess server;
    private ItSession it;

    private void start(String... jvmArgs) throws IOException {
        server = ServerProcess.start(java.util.List.of(jvmArgs), ServerProcess.TRUSTED_ROOT_ARGS.toArray(String[]::new));
        it = ItSession.open(server, "light");
    }

    @AfterEach
    void stop() throws IOException {
        if (it != null) {
            try {
                it.close();
            } catch (IOException | RuntimeException e) {
                // the server may have halted at a crash point
            }
        }
        if (server != null) {
            server.close();
        }
    }

    private NfsOps nfs() {
        return it.nfs();
    }

    private CompoundResult txn(CompoundBuilder ops) throws IOException {
        return it.session().executeTransaction(ops);
    }

    private double light() throws IOException {
        return server.metric("tcnfs_txn_light_total");
    }

    private double commits() throws IOException {
        return server.metric("tcnfs_txn_commits_total");
    }

    private CompoundBuilder openCreate(byte[] dir, String name, int mode) {
        return new CompoundBuilder().putfh(dir).openCreate(it.session().clientId(), nfs().openOwner(), name,
                OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().mode(mode).build()).getfh();
    }

    /** OPEN EXCLUSIVE4_1 of {@code name} with mode 0640 and the verifier 0x00000001 00000002 (atime 1 s, mtime 2 s). */
    private CompoundBuilder openExclusive(byte[] dir, String name) {
        return new CompoundBuilder().putfh(dir).open(new OPEN4args(0, OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                OPEN4args.OPEN4_SHARE_DENY_NONE, new open_owner4(it.session().clientId(), nfs().openOwner()),
                openflag4.create(createhow4.exclusive41(new verifier4(new byte[] {0, 0, 0, 1, 0, 0, 0, 2}),
                        Attrs.builder().mode(0640).build())), open_claim4.byName(name))).getfh();
    }

    private static int modeOnDisk(Path p) throws IOException {
        return ((Number) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS)).intValue() & 07777;
    }

    @Test
    void loneAtomicChangesTakeTheLightPathAndDoWhatTheySay() throws IOException {
        start();
        byte[] dir = nfs().mkdir(nfs().rootFh(), "d");
        byte[] f = nfs().createFile(dir, "f", OLD);
        nfs().createFile(dir, "victim", OLD);
        nfs().createFile(dir, "src", NEW);
        nfs().createFile(dir, "target", OLD);
        Path local = server.exportDir().resolve("d");
        double light = light();
        double commits = commits();

        txn(new CompoundBuilder().putfh(dir).remove("victim").getattr(FATTR4_SIZE)).orThrow();
        txn(new CompoundBuilder().putfh(f).setattr(Attrs.builder().mode(0600).build()).getattr(FATTR4_MODE))
                .orThrow();
        txn(new CompoundBuilder().putfh(f).savefh().putfh(dir).link("f2").restorefh().getattr(FATTR4_SIZE))
                .orThrow();
        txn(openCreate(dir, "made", 0640)).orThrow();
        txn(openExclusive(dir, "exclusive")).orThrow();

        assertThat(light() - light).as("five light-path commits").isEqualTo(5);
        assertThat(commits() - commits).isEqualTo(5);
        assertThat(Files.getLastModifiedTime(local.resolve("exclusive")).toMillis()).as("the verifier")
                .isEqualTo(2000);
        assertThat(Files.exists(local.resolve("victim"))).isFalse();
        assertThat(modeOnDisk(local.resolve("f"))).isEqualTo(0600);
        assertThat(Files.getAttribute(local.resolve("f2"), "unix:ino")).isEqualTo(
                Files.getAttribute(local.resolve("f"), "unix:ino"));
        assertThat(modeOnDisk(local.resolve("made"))).isEqualTo(0640);
        assertThat(TxnLeftovers.backupsLeft(server, 5_000)).as("kept victims and backups deleted").isEmpty();
    }

    private double durableCommitRequests() throws IOException {
        return server.metric("tcnfs_lmdb_durable_commit_requests_total");
    }

    private double journalRecords() throws IOException {
        return server.metric("tcnfs_row_journal_records_total");
    }

    /**
     * The durable commit requests once the background ones have stopped (a removed row leaves the table up to a
     * second after its compound, by a commit of its own): the count unchanged for 1.5 s, at most 15 s.
     */
    private double settledDurableCommitRequests() throws IOException {
        double count = durableCommitRequests();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
        int quiet = 0;
        while (quiet < 3 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted");
            }
            double now = durableCommitRequests();
            quiet = now == count ? quiet + 1 : 0;
            count = now;
        }
        return count;
    }

    /** {@code length} bytes of {@code fill}. */
    private static byte[] bytes(int length, char fill) {
        byte[] b = new byte[length];
        java.util.Arrays.fill(b, (byte) fill);
        return b;
    }

    /**
     * What an unmodified client sends for each 4 KiB of a file (fuse-nfs over libnfs: PUTFH, WRITE): a WRITE within
     * one page is one copy the kernel does not cut short, so it commits on the light path with the file's fsync
     * alone (no record, no LMDB commit at all); a WRITE across a page boundary keeps its record.
     */
    @Test
    void aWriteWithinOnePageTakesTheLightPathWithoutAnyLmdbCommitAndOneAcrossPagesDoesNot() throws IOException {
        start();
        byte[] dir = nfs().mkdir(nfs().rootFh(), "d");
        byte[] f = nfs().createFile(dir, "f", bytes(4096, 'a'));
        Path local = server.exportDir().resolve("d/f");
        double light = light();
        double commits = commits();
        double journaled = journalRecords();

        txn(new CompoundBuilder().putfh(f).write(CompoundBuilder.anonymousStateid(), 4000, bytes(200, 'd')))
                .orThrow();
        assertThat(light() - light).as("a WRITE across a page boundary takes the full path").isZero();
        assertThat(commits() - commits).isEqualTo(1);
        assertThat(journalRecords() - journaled).as("its record and its commit point, a row journal record each")
                .isEqualTo(2);

        // (the first transaction after the start also made the transaction id floor durable)
        double lmdb = settledDurableCommitRequests(); // after the background flush of the first one's journal records
        journaled = journalRecords();
        txn(new CompoundBuilder().putfh(f).write(CompoundBuilder.anonymousStateid(), 4096, bytes(4096, 'b'))
                .getattr(FATTR4_SIZE)).orThrow();
        txn(new CompoundBuilder().putfh(f).write(CompoundBuilder.anonymousStateid(), 10, bytes(5, 'c'))).orThrow();

        assertThat(light() - light).as("an appended page and an overwrite within a page: light").isEqualTo(2);
        assertThat(commits() - commits).isEqualTo(3);
        assertThat(durableCommitRequests() - lmdb).as("no record, no handle change: no LMDB commit").isZero();
        assertThat(journalRecords() - journaled).as("and no row journal record").isZero();
        byte[] expected = new byte[8192];
        java.util.Arrays.fill(expected, 0, 4000, (byte) 'a');
        java.util.Arrays.fill(expected, 4000, 4096, (byte) 'd');
        java.util.Arrays.fill(expected, 4096, 8192, (byte) 'b');
        java.util.Arrays.fill(expected, 10, 15, (byte) 'c');
        assertThat(Files.readAllBytes(local)).isEqualTo(expected);
        assertThat(TxnLeftovers.backupsLeft(server, 5_000)).as("the overwrites' backups deleted").isEmpty();
    }

    /**
     * rm -rf through an unmodified client sends one REMOVE per compound: a light REMOVE's change is durable with its
     * directory's fsync, and the removed object's handle row goes a moment after it, as a plain REMOVE's does
     * (docs/durability.md, "Plain REMOVE: the row goes later"), instead of in a durable LMDB commit before the
     * reply. The removed object's handle answers NFS4ERR_STALE at once; a new object at the name gets a new handle.
     */
    @Test
    void aLightRemoveMakesNoLmdbCommitBeforeItsReplyAndItsHandleAnswersStale() throws IOException {
        start();
        byte[] dir = nfs().mkdir(nfs().rootFh(), "d");
        byte[] victim = nfs().createFile(dir, "victim", OLD);
        nfs().createFile(dir, "warm-up", OLD);
        // the first transaction after the start also makes the transaction id floor durable
        txn(new CompoundBuilder().putfh(dir).remove("warm-up")).orThrow();
        // the warm-up's row leaves the table by a commit of its own, up to a second later
        double lmdb = settledDurableCommitRequests();
        double light = light();

        txn(new CompoundBuilder().putfh(dir).remove("victim")).orThrow();

        assertThat(light() - light).isEqualTo(1);
        assertThat(durableCommitRequests() - lmdb).as("no LMDB commit before the reply").isZero();
        assertThat(nfs().run(new CompoundBuilder().putfh(victim).getattr(FATTR4_SIZE)).status())
                .isEqualTo(NfsStatus.STALE);
        byte[] again = nfs().createFile(dir, "victim", NEW);
        assertThat(again).as("a new object at the name, a new handle").isNotEqualTo(victim);
        assertThat(nfs().lookup(dir, "victim")).isEqualTo(again);
        assertThat(nfs().read(again)).isEqualTo(NEW);
        assertThat(TxnLeftovers.backupsLeft(server, 5_000)).as("the kept victim deleted").isEmpty();
    }

    /**
     * A kill -9 after a light REMOVE's commit (its directory synced, its row not yet removed): the name stays gone,
     * nothing is left to recover, the row that outlived the object answers NFS4ERR_STALE, and the name can be
     * created again with a new handle.
     */
    @Test
    void aCrashAfterALightRemoveCommittedLeavesItDoneAndItsHandleStale() throws IOException {
        start("-D" + CrashPoints.PROPERTY + "=after-commit");
        byte[] dir = nfs().mkdir(nfs().rootFh(), "d");
        byte[] victim = nfs().createFile(dir, "victim", OLD);
        Thread sender = new Thread(() -> {
            try {
                txn(new CompoundBuilder().putfh(dir).remove("victim"));
            } catch (IOException | RuntimeException e) {
                // the server halts before it answers
            }
        });
        sender.setDaemon(true);
        sender.start();
        assertThat(server.awaitExit(EXIT_TIMEOUT)).isEqualTo(CrashPoints.EXIT_STATUS);
        assertThat(TxnLeftovers.recordsLeft(server)).isEmpty();
        server.setJvmArgs();
        server.relaunch();
        it.close();
        it = ItSession.open(server, "light-after");

        assertThat(Files.exists(server.exportDir().resolve("d/victim"), LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(nfs().run(new CompoundBuilder().putfh(victim).getattr(FATTR4_SIZE)).status())
                .isEqualTo(NfsStatus.STALE);
        byte[] again = nfs().createFile(dir, "victim", NEW);
        assertThat(again).isNotEqualTo(victim);
        assertThat(nfs().read(again)).isEqualTo(NEW);
        assertThat(TxnLeftovers.backupsLeft(server, 5_000)).as("orphan backups removed at the start").isEmpty();
    }

    /** Longer than the delay after which a removed object's row goes ({@code LateDurability.DEFAULT_DELAY}). */
    private static final Duration LATE_ROWS_DELAY = Duration.ofMillis(1_500);

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private double lightRollbacks() throws IOException {
        return server.metric("tcnfs_txn_light_rollbacks_total");
    }

    private static Object inode(Path p) throws IOException {
        return Files.getAttribute(p, "unix:ino", LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * rm -rf through an unmodified client removes each emptied directory in a compound of its own: a REMOVE of an empty
     * directory is light too, one rename into the transaction's backup directory that is the removal (and keeps the
     * same directory for an undo); it writes no record, makes no LMDB commit before its reply (its row goes later, as
     * a file's), and its handle answers NFS4ERR_STALE; a new directory at the name gets a new handle.
     */
    @Test
    void aLightRmdirOfAnEmptyDirectoryMakesNoLmdbCommitBeforeItsReplyAndItsHandleAnswersStale() throws IOException {
        start();
        byte[] dir = nfs().mkdir(nfs().rootFh(), "d");
        byte[] sub = nfs().mkdir(dir, "sub");
        nfs().mkdir(dir, "warm-up");
        // the first transaction after the start also makes the transaction id floor durable; its row goes within a
        // second, in a lazy commit the counter below would count
        txn(new CompoundBuilder().putfh(dir).remove("warm-up")).orThrow();
        sleep(LATE_ROWS_DELAY);
        double light = light();
        double lmdb = settledDurableCommitRequests();

        txn(new CompoundBuilder().putfh(dir).remove("sub").getattr(FATTR4_SIZE)).orThrow();

        assertThat(light() - light).as("the rmdir took the light path").isEqualTo(1);
        assertThat(durableCommitRequests() - lmdb).as("no record, no LMDB commit before the reply").isZero();
        assertThat(Files.exists(server.exportDir().resolve("d/sub"), LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(nfs().run(new CompoundBuilder().putfh(sub).getattr(FATTR4_SIZE)).status())
                .isEqualTo(NfsStatus.STALE);
        assertThat(TxnLeftovers.backupsLeft(server, 5_000)).as("the kept directory deleted").isEmpty();
        byte[] again = nfs().mkdir(dir, "sub");
        assertThat(again).as("a new directory at the name, a new handle").isNotEqualTo(sub);
        assertThat(nfs().lookup(dir, "sub")).isEqualTo(again);
    }

    /**
     * A REMOVE of a directory that is not empty answers NFS4ERR_NOTEMPTY and changes nothing: the same directory (its
     * inode, its handle) with its entry, no record left, nothing kept in the backup area.
     */
    @Test
    void aLightRmdirOfADirectoryThatIsNotEmptyAnswersNotEmptyAndChangesNothing() throws IOException {
        start();
        byte[] dir = nfs().mkdir(nfs().rootFh(), "d");
        byte[] full = nfs().mkdir(dir, "full");
        nfs().createFile(full, "inside", OLD);
        Path local = server.exportDir().resolve("d/full");
        Object ino = inode(local);
        double light = light();
        double rollbacks = lightRollbacks();

        CompoundResult r = txn(new CompoundBuilder().putfh(dir).remove("full"));

        assertThat(r.status()).isEqualTo(NfsStatus.NOTEMPTY);
        assertThat(light() - light).as("nothing committed").isZero();
        assertThat(lightRollbacks() - rollbacks).as("a light compound rolled back").isEqualTo(1);
        assertThat(inode(local)).as("the same directory").isEqualTo(ino);
        assertThat(Files.readAllBytes(local.resolve("inside"))).isEqualTo(OLD);
        assertThat(nfs().lookup(dir, "full")).as("the same handle").isEqualTo(full);
        assertThat(nfs().readdirNames(full)).containsExactly("inside");
        assertThat(server.metric("tcnfs_txn_undo_failures_total")).as("its undo did not fail").isZero();
        assertThat(TxnLeftovers.backupsLeft(server, 5_000)).isEmpty();
    }

    private double fsyncRequests() throws IOException {
        return server.metric("tcnfs_shared_fsync_requests_total");
    }

    /**
     * fuse-nfs (libnfs) sends its 4 KiB WRITEs as UNSTABLE4 and a COMMIT at close: a light WRITE the client sent so
     * answers UNSTABLE4 and fsyncs nothing, as a plain one (the COMMIT makes it durable); one sent FILE_SYNC4 is
     * durable before its reply.
     */
    @Test
    void aLightUnstableWriteAnswersUnstableAndLeavesItsFsyncToTheCommit() throws IOException {
        start();
        byte[] dir = nfs().mkdir(nfs().rootFh(), "d");
        byte[] f = nfs().createFile(dir, "f", bytes(100, 'a'));
        double light = light();
        double fsyncs = fsyncRequests();

        CompoundResult unstable = txn(new CompoundBuilder().putfh(f).write(CompoundBuilder.anonymousStateid(), 100,
                org.tcnfs.nfs4.xdr.stable_how4.UNSTABLE4, bytes(3996, 'u')));

        assertThat(unstable.status()).isEqualTo(NfsStatus.OK);
        assertThat(unstable.body(org.tcnfs.nfs4.xdr.nfs_opnum4.OP_WRITE, org.tcnfs.nfs4.xdr.WRITE4resok.class)
                .committed).as("committed").isEqualTo(org.tcnfs.nfs4.xdr.stable_how4.UNSTABLE4);
        assertThat(light() - light).isEqualTo(1);
        assertThat(fsyncRequests() - fsyncs).as("no fsync before the reply").isZero();
        assertThat(Files.size(server.exportDir().resolve("d/f"))).isEqualTo(4096);

        nfs().run(new CompoundBuilder().putfh(f).commit(0, 0)).orThrow();
        assertThat(fsyncRequests() - fsyncs).as("the COMMIT's fsync").isEqualTo(1);

        CompoundResult stable = txn(new CompoundBuilder().putfh(f).write(CompoundBuilder.anonymousStateid(), 4096,
                bytes(10, 's')));
        assertThat(stable.body(org.tcnfs.nfs4.xdr.nfs_opnum4.OP_WRITE, org.tcnfs.nfs4.xdr.WRITE4resok.class)
                .committed).isEqualTo(org.tcnfs.nfs4.xdr.stable_how4.FILE_SYNC4);
        assertThat(light() - light).isEqualTo(2);
        assertThat(fsyncRequests() - fsyncs).as("a FILE_SYNC4 light WRITE fsyncs the file before its reply")
                .isEqualTo(2);
    }

    @Test
    void twoChangesAChangeFollowedByAnOperationThatMayFailOrARenameTakeTheFullPath() throws IOException {
        start();
        byte[] dir = nfs().mkdir(nfs().rootFh(), "d");
        for (String name : new String[] {"a", "b", "c", "f", "src", "target"}) {
            nfs().createFile(dir, name, OLD);
        }
        double light = light();
        double commits = commits();

        txn(new CompoundBuilder().putfh(dir).remove("a").remove("b")).orThrow();
        txn(new CompoundBuilder().putfh(dir).remove("c").lookup("f")).orThrow();
        txn(new CompoundBuilder().putfh(dir).mkdir("sub")).orThrow();
        txn(new CompoundBuilder().putfh(dir).savefh().rename("src", "target")).orThrow();

        assertThat(commits() - commits).isEqualTo(4);
        assertThat(light() - light).as("none of them light").isZero();
    }

    @Test
    void aLightCompoundWritesNoRecordWhereAFullOneDoes() throws IOException {
        // the crash point right after a record became durable: the light compound never reaches it
        start("-D" + CrashPoints.PROPERTY + "=after-record-durable");
        byte[] dir = nfs().mkdir(nfs().rootFh(), "d");
        nfs().createFile(dir, "a", OLD);
        nfs().createFile(dir, "b", OLD);
        nfs().createFile(dir, "c", OLD);

        txn(new CompoundBuilder().putfh(dir).remove("a")).orThrow();
        assertThat(server.isAlive()).as("a light REMOVE wrote no record").isTrue();
        assertThat(light()).isEqualTo(1);

        Thread sender = new Thread(() -> {
            try {
                txn(new CompoundBuilder().putfh(dir).remove("b").remove("c"));
            } catch (IOException | RuntimeException e) {
                // the server halts before it answers
            }
        });
        sender.setDaemon(true);
        sender.start();
        assertThat(server.awaitExit(EXIT_TIMEOUT)).as("two REMOVEs write a record first").isEqualTo(
                CrashPoints.EXIT_STATUS);
        assertThat(TxnLeftovers.recordsLeft(server)).hasSize(1);
        server.setJvmArgs();
        server.relaunch();
        Path local = server.exportDir().resolve("d");
        assertThat(Files.exists(local.resolve("a"))).isFalse();
        assertThat(Files.exists(local.resolve("b"))).as("nothing of the full compound happened").isTrue();
        assertThat(Files.exists(local.resolve("c"))).isTrue();
    }

    /** What a crash inside one light compound must leave: the state before it or after it, and nothing to recover. */
    private interface Scenario {
        CompoundBuilder compound(byte[] dir);

        void checkBefore(Path dir) throws IOException;

        void checkAfter(Path dir) throws IOException;
    }

    private final Scenario remove = new Scenario() {
        @Override
        public CompoundBuilder compound(byte[] dir) {
            return new CompoundBuilder().putfh(dir).remove("victim").getattr(FATTR4_SIZE);
        }

        @Override
        public void checkBefore(Path dir) throws IOException {
            assertThat(Files.readAllBytes(dir.resolve("victim"))).isEqualTo(OLD);
        }

        @Override
        public void checkAfter(Path dir) {
            assertThat(Files.exists(dir.resolve("victim"), LinkOption.NOFOLLOW_LINKS)).isFalse();
        }
    };

    private final Scenario rmdir = new Scenario() {
        @Override
        public CompoundBuilder compound(byte[] dir) {
            return new CompoundBuilder().putfh(dir).remove("sub").getattr(FATTR4_SIZE);
        }

        @Override
        public void checkBefore(Path dir) {
            assertThat(Files.isDirectory(dir.resolve("sub"), LinkOption.NOFOLLOW_LINKS)).isTrue();
        }

        @Override
        public void checkAfter(Path dir) {
            assertThat(Files.exists(dir.resolve("sub"), LinkOption.NOFOLLOW_LINKS)).isFalse();
        }
    };

    private final Scenario openCreate = new Scenario() {
        @Override
        public CompoundBuilder compound(byte[] dir) {
            return openCreate(dir, "made", 0640);
        }

        @Override
        public void checkBefore(Path dir) {
            assertThat(Files.exists(dir.resolve("made"), LinkOption.NOFOLLOW_LINKS)).isFalse();
        }

        @Override
        public void checkAfter(Path dir) throws IOException {
            assertThat(modeOnDisk(dir.resolve("made"))).as("created with its final mode").isEqualTo(0640);
        }
    };

    private final Scenario exclusiveCreate = new Scenario() {
        @Override
        public CompoundBuilder compound(byte[] dir) {
            return openExclusive(dir, "made");
        }

        @Override
        public void checkBefore(Path dir) {
            assertThat(Files.exists(dir.resolve("made"), LinkOption.NOFOLLOW_LINKS)).isFalse();
        }

        @Override
        public void checkAfter(Path dir) throws IOException {
            assertThat(modeOnDisk(dir.resolve("made"))).as("created with its final mode").isEqualTo(0640);
            assertThat(Files.getLastModifiedTime(dir.resolve("made")).toMillis()).as("and its verifier")
                    .isEqualTo(2000);
        }
    };

    private final Scenario chmod = new Scenario() {
        @Override
        public CompoundBuilder compound(byte[] dir) {
            return new CompoundBuilder().putfh(dir).lookup("victim").setattr(Attrs.builder().mode(0604).build());
        }

        @Override
        public void checkBefore(Path dir) throws IOException {
            assertThat(modeOnDisk(dir.resolve("victim"))).isEqualTo(0644);
        }

        @Override
        public void checkAfter(Path dir) throws IOException {
            assertThat(modeOnDisk(dir.resolve("victim"))).isEqualTo(0604);
        }
    };

    private final Scenario writeInPage = new Scenario() {
        @Override
        public CompoundBuilder compound(byte[] dir) {
            return new CompoundBuilder().putfh(dir).lookup("victim").write(CompoundBuilder.anonymousStateid(), 4,
                    NEW).getattr(FATTR4_SIZE);
        }

        @Override
        public void checkBefore(Path dir) throws IOException {
            assertThat(Files.readAllBytes(dir.resolve("victim"))).isEqualTo(OLD);
        }

        @Override
        public void checkAfter(Path dir) throws IOException {
            byte[] expected = java.util.Arrays.copyOf(OLD, 4 + NEW.length);
            System.arraycopy(NEW, 0, expected, 4, NEW.length);
            assertThat(Files.readAllBytes(dir.resolve("victim"))).as("overwritten and extended").isEqualTo(expected);
        }
    };

    /**
     * Runs {@code scenario}'s compound with the server armed to halt at {@code point}, starts it again, and checks
     * that the export holds the state before ({@code after == false}) or after the compound, that the compound left
     * no record to recover, and that recovery's orphan cleanup removed what the compound had kept aside.
     */
    private void crashAt(Scenario scenario, String point, boolean after) throws IOException {
        start("-D" + CrashPoints.PROPERTY + "=" + point);
        byte[] dir = nfs().mkdir(nfs().rootFh(), "d");
        nfs().createFile(dir, "victim", OLD);
        nfs().createFile(dir, "src", NEW);
        nfs().createFile(dir, "target", OLD);
        byte[] sub = nfs().mkdir(dir, "sub");
        Object subInode = inode(server.exportDir().resolve("d/sub"));
        Thread sender = new Thread(() -> {
            try {
                txn(scenario.compound(dir));
            } catch (IOException | RuntimeException e) {
                // the server halts before it answers
            }
        });
        sender.setDaemon(true);
        sender.start();
        assertThat(server.awaitExit(EXIT_TIMEOUT)).as("halted at %s", point).isEqualTo(CrashPoints.EXIT_STATUS);
        assertThat(TxnLeftovers.recordsLeft(server)).as("a light compound writes no record").isEmpty();
        server.setJvmArgs();
        server.relaunch();
        Path local = server.exportDir().resolve("d");
        if (after) {
            scenario.checkAfter(local);
        } else {
            scenario.checkBefore(local);
        }
        assertThat(TxnLeftovers.backupsLeft(server, 5_000)).as("orphan backups removed at the start").isEmpty();
        it.close();
        it = ItSession.open(server, "light-after");
        byte[] again = nfs().lookup(nfs().rootFh(), "d");
        assertThat(nfs().readdirNames(again)).as("the directory reads through the wire").isNotNull();
        Path subAfter = local.resolve("sub");
        if (Files.exists(subAfter, LinkOption.NOFOLLOW_LINKS)) {
            assertThat(inode(subAfter)).as("d/sub is the same directory").isEqualTo(subInode);
            assertThat(nfs().lookup(again, "sub")).as("with the same handle").isEqualTo(sub);
        } else {
            assertThat(nfs().run(new CompoundBuilder().putfh(sub).getattr(FATTR4_SIZE)).status())
                    .as("the handle of the removed d/sub").isEqualTo(NfsStatus.STALE);
        }
    }

    @Test
    void aCrashRightAfterALightRmdirLeavesItDoneAndNothingToRecover() throws IOException {
        crashAt(rmdir, "after-op-2", true);
    }

    @Test
    void aCrashRightBeforeALightRmdirLeavesTheSameDirectory() throws IOException {
        crashAt(rmdir, "before-op-2", false);
    }

    @Test
    void aCrashBeforeTheCommitOfALightRmdirLeavesItDone() throws IOException {
        crashAt(rmdir, "before-commit", true);
    }

    @Test
    void aCrashRightAfterALightRemoveLeavesItDoneAndNothingToRecover() throws IOException {
        crashAt(remove, "after-op-2", true);
    }

    @Test
    void aCrashRightBeforeALightRemoveLeavesNothingOfIt() throws IOException {
        crashAt(remove, "before-op-2", false);
    }

    @Test
    void aCrashBeforeTheCommitOfALightOpenCreateLeavesTheFileWithItsFinalMode() throws IOException {
        crashAt(openCreate, "before-commit", true);
    }

    @Test
    void aCrashRightBeforeALightOpenCreateLeavesNoFile() throws IOException {
        crashAt(openCreate, "before-op-2", false);
    }

    @Test
    void aCrashRightAfterALightExclusiveCreateLeavesTheFileWithItsVerifierAndNothingToRecover() throws IOException {
        crashAt(exclusiveCreate, "after-op-2", true);
    }

    @Test
    void aCrashRightAfterALightChmodLeavesTheNewModeAndNothingToRecover() throws IOException {
        crashAt(chmod, "after-op-3", true);
    }

    @Test
    void aCrashRightBeforeALightWriteLeavesTheOldBytes() throws IOException {
        crashAt(writeInPage, "before-op-3", false);
    }

    @Test
    void aCrashRightAfterALightWriteLeavesTheNewBytesAndNothingToRecover() throws IOException {
        crashAt(writeInPage, "after-op-3", true);
    }

    @Test
    void anOpenThatTruncatesAnExistingFileIsOneCallAndTakesTheLightPath() throws IOException {
        start();
        byte[] dir = nfs().mkdir(nfs().rootFh(), "d");
        nfs().createFile(dir, "taken", OLD);
        double light = light();

        CompoundResult r = txn(new CompoundBuilder().putfh(dir).openCreate(it.session().clientId(),
                nfs().openOwner(), "taken", OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                Attrs.builder().size(0).mode(0600).build()).getfh());
        assertThat(r.status()).as("UNCHECKED4 of an existing file truncates it").isEqualTo(NfsStatus.OK);
        assertThat(Files.size(server.exportDir().resolve("d/taken"))).isZero();
        assertThat(light() - light).isEqualTo(1);
    }
}
