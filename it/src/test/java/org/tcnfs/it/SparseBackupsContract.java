package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.txn.CrashPoints;
import org.tcnfs.txn.backup.Reflink;

/**
 * Transactions over sparse files through the wire (issue 14, item 4; DESIGN.md step 4): the real server
 * process backs up only the allocated extents of what a WRITE or a truncation destroys, a rollback (online,
 * or by recovery after a crash) punches the holes back so the file stays sparse with the same content, and
 * backup byte budgets (settings {@code backup-budget-per-txn}, {@code backup-budget-total}) refuse a
 * transaction with NFS4ERR_NOSPC before it changes anything. Each test prints what it measured (time, bytes
 * the server wrote per {@code /proc/<pid>/io}, {@code st_blocks} before and after). Subclasses choose the
 * file system. It runs alone ({@link ForkTurns}): it times transactions and compares the shared test file
 * system's free space before and after.
 */
@Tag(ForkTurns.ALONE)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SparseBackupsContract {
    private static final long KIB = 1L << 10;
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;
    private static final long TIB = 1L << 40;

    /** Ops of the crash test's compound (SEQUENCE is op 0): padded so that no other compound reaches it. */
    private static final int CRASH_OP = 15;
    private static final String BUDGET_PER_TXN = "1MiB";
    private static final String BUDGET_TOTAL = "1536KiB";

    /** The server of the sparse-file tests: default settings. */
    private ServerProcess server;
    /**
     * The server of the budget and crash tests: backup budgets of {@value #BUDGET_PER_TXN} per transaction and
     * {@value #BUDGET_TOTAL} in all, and, until the crash test ran, a crash point before operation
     * {@value #CRASH_OP}, which only the crash test's compound has.
     */
    private ServerProcess small;
    private ItSession session;
    private NfsOps nfs;
    private String name;
    private Path dirPath;
    private byte[] dir;

    /** Where the server's export and state directories go. */
    abstract Path workDirectory() throws IOException;

    @BeforeAll
    void startServers() throws IOException {
        server = ServerProcess.startIn(workDirectory(), List.of());
        small = ServerProcess.startIn(workDirectory(), List.of("-D" + CrashPoints.PROPERTY + "=before-op-" + CRASH_OP),
                "--backup-budget-per-txn", BUDGET_PER_TXN, "--backup-budget-total", BUDGET_TOTAL);
    }

    @AfterAll
    void stopServers() throws IOException {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (small != null) {
                small.close();
            }
        }
    }

    @BeforeEach
    void openSessionAndDirectory(TestInfo test) throws IOException {
        name = test.getTestMethod().orElseThrow().getName();
        dirPath = Files.createDirectories(server.exportDir().resolve(name));
        connect();
    }

    @AfterEach
    void closeSession() throws IOException {
        if (session != null) {
            session.close();
            session = null;
        }
    }

    private void connect() throws IOException {
        session = ItSession.open(server, "sparse-it");
        nfs = session.nfs();
        dir = nfs.lookup(nfs.rootFh(), name);
    }

    // ---- tests

    @Test
    void truncatingAFileWithATwoGibHoleIsFastWritesAlmostNothingAndARollbackKeepsItSparse() throws IOException {
        Path file = sparseFile("big", 2 * GIB + 128 * KIB);
        FileState before = FileState.of(file);
        IoCounters io = IoCounters.of(server.pid());
        long started = System.nanoTime();

        // truncate to 0, write into the old hole, then fail: everything is undone
        long client = nfs.session().clientId();
        CompoundResult r = nfs.session().executeTransaction(new CompoundBuilder().putfh(dir)
                .openExisting(client, nfs.openOwner(), "big", OPEN4args.OPEN4_SHARE_ACCESS_WRITE)
                .write(CompoundBuilder.currentStateid(), GIB, "into the hole".getBytes(StandardCharsets.UTF_8))
                .setattr(Attrs.builder().size(0).build())
                .putfh(dir).lookup("missing"));

        long nanos = System.nanoTime() - started;
        IoCounters written = IoCounters.of(server.pid()).minus(io);
        FileState after = FileState.of(file);
        report("truncate 2 GiB hole + rollback", nanos, written, before, after);
        assertThat(r.status()).as("%s", r).isEqualTo(NfsStatus.NOENT);
        assertThat(after).as("the file after the rollback").isEqualTo(before);
        assertThat(written.wchar()).as("bytes the server wrote").isLessThan(8 * MIB);
        assertThat(nanos).as("time of the transaction").isLessThan(TimeUnit.SECONDS.toNanos(5));
        assertNoBackupsLeft();
    }

    @Test
    void committedTruncationOfAFileWithATwoGibHoleWritesAlmostNothing() throws IOException {
        Path file = sparseFile("big", 2 * GIB + 128 * KIB);
        FileState before = FileState.of(file);
        IoCounters io = IoCounters.of(server.pid());
        long started = System.nanoTime();

        CompoundResult r = nfs.session().executeTransaction(new CompoundBuilder().putfh(dir).lookup("big")
                .setattr(Attrs.builder().size(0).build()));

        long nanos = System.nanoTime() - started;
        IoCounters written = IoCounters.of(server.pid()).minus(io);
        FileState after = FileState.of(file);
        report("truncate 2 GiB hole, commit", nanos, written, before, after);
        assertThat(r.status()).as("%s", r).isEqualTo(NfsStatus.OK);
        assertThat(Files.size(file)).isZero();
        assertThat(written.wchar()).as("bytes the server wrote").isLessThan(8 * MIB);
        assertThat(nanos).as("time of the transaction").isLessThan(TimeUnit.SECONDS.toNanos(5));
        assertNoBackupsLeft();
    }

    @Test
    void threeByteWriteAtOneTibThenATruncatingTransactionDoesNotFillTheDisk() throws IOException {
        Path file = dirPath.resolve("tib");
        byte[] fh = nfs.createFile(dir, "tib", new byte[0]);
        long client = nfs.session().clientId();
        nfs.runOk(new CompoundBuilder().putfh(dir)
                .openExisting(client, nfs.openOwner(), "tib", OPEN4args.OPEN4_SHARE_ACCESS_WRITE)
                .write(CompoundBuilder.currentStateid(), TIB, 2, new byte[] {'a', 'b', 'c'})
                .close(CompoundBuilder.currentStateid()));
        assertThat(Files.size(file)).isEqualTo(TIB + 3);
        FileState before = FileState.of(file);
        long free = Files.getFileStore(file).getUsableSpace();
        IoCounters io = IoCounters.of(server.pid());
        long started = System.nanoTime();

        CompoundResult rolledBack = nfs.session().executeTransaction(new CompoundBuilder().putfh(fh)
                .setattr(Attrs.builder().size(0).build()).putfh(dir).lookup("missing"));

        long nanos = System.nanoTime() - started;
        IoCounters written = IoCounters.of(server.pid()).minus(io);
        FileState after = FileState.of(file);
        report("truncate 1 TiB + 3 bytes + rollback", nanos, written, before, after);
        assertThat(rolledBack.status()).as("%s", rolledBack).isEqualTo(NfsStatus.NOENT);
        assertThat(after).isEqualTo(before);
        assertThat(Files.getFileStore(file).getUsableSpace()).as("free space").isGreaterThan(free - 8 * MIB);
        assertThat(written.wchar()).as("bytes the server wrote").isLessThan(8 * MIB);

        CompoundResult committed = nfs.session().executeTransaction(new CompoundBuilder().putfh(fh)
                .setattr(Attrs.builder().size(0).build()));
        assertThat(committed.status()).as("%s", committed).isEqualTo(NfsStatus.OK);
        assertThat(Files.size(file)).isZero();
        assertNoBackupsLeft();
    }

    @Test
    void smallWriteIntoAHoleRolledBackLeavesTheHole() throws IOException {
        Path file = sparseFile("holey", 64 * MIB);
        FileState before = FileState.of(file);
        long client = nfs.session().clientId();

        CompoundResult r = nfs.session().executeTransaction(new CompoundBuilder().putfh(dir)
                .openExisting(client, nfs.openOwner(), "holey", OPEN4args.OPEN4_SHARE_ACCESS_WRITE)
                .write(CompoundBuilder.currentStateid(), 32 * MIB, new byte[8192])
                .write(CompoundBuilder.currentStateid(), 40 * MIB + 100, "x".getBytes(StandardCharsets.UTF_8))
                .putfh(dir).lookup("missing"));

        assertThat(r.status()).as("%s", r).isEqualTo(NfsStatus.NOENT);
        assertThat(FileState.of(file)).isEqualTo(before);
        assertNoBackupsLeft();
    }

    @Test
    void transactionOverThePerTransactionBudgetGetsNoSpcAndChangesNothing() throws IOException {
        try (ItSession s = ItSession.open(small, "budget-it")) {
            Path d = Files.createDirectories(small.exportDir().resolve("per-txn"));
            double refusals = small.metric("tcnfs_txn_backup_budget_refusals_total");
            Files.write(d.resolve("small"), TestData.randomBytes(512 * (int) KIB, 1));
            Path big = d.resolve("big");
            try (RandomAccessFile raf = new RandomAccessFile(big.toFile(), "rw")) {
                raf.setLength(512 * MIB); // a hole: free
                raf.write(TestData.randomBytes(2 * (int) MIB, 2)); // 2 MiB of data at 0
            }
            Map<String, FileState> before = states(d);
            byte[] dh = s.nfs().lookup(s.nfs().rootFh(), "per-txn");
            long client = s.session().clientId();

            CompoundResult within = s.session().executeTransaction(new CompoundBuilder().putfh(dh).lookup("small")
                    .setattr(Attrs.builder().size(0).build()).putfh(dh).lookup("missing"));
            assertThat(within.status()).as("512 KiB of backups fit: %s", within).isEqualTo(NfsStatus.NOENT);

            CompoundResult over = s.session().executeTransaction(new CompoundBuilder().putfh(dh)
                    .openExisting(client, s.nfs().openOwner(), "small", OPEN4args.OPEN4_SHARE_ACCESS_WRITE)
                    .write(CompoundBuilder.currentStateid(), 0, TestData.randomBytes(100_000, 3))
                    .putfh(dh).lookup("big").setattr(Attrs.builder().size(4096).build()));

            assertThat(over.status()).as("%s", over).isEqualTo(NfsStatus.NOSPC);
            assertThat(states(d)).as("nothing changed").isEqualTo(before);
            assertThat(leftoversEventually(small)).isEmpty();
            assertThat(over.toString()).doesNotContain("NFS4ERR_IO");
            assertThat(small.output()).as("log lines (one per 10 s at most)").contains("refused with NFS4ERR_NOSPC");
            assertThat(s.nfs().session().executeTransaction(new CompoundBuilder().putfh(dh).lookup("small")
                    .setattr(Attrs.builder().size(0).build())).status()).as("a transaction within the budget")
                    .isEqualTo(NfsStatus.OK);
            String metrics = small.scrapeMetrics();
            assertThat(ServerProcess.metric(metrics, "tcnfs_txn_backup_budget_refusals_total").orElseThrow()
                    - refusals).isEqualTo(1);
            assertThat(ServerProcess.metric(metrics, "tcnfs_txn_backup_budget_used_bytes").orElseThrow())
                    .as("nothing held after the commit").isBetween(0.0, 512.0 * KIB);
        }
    }

    @Test
    void transactionPreparedOpByOpThatOutgrowsItsEstimateGetsNoSpcAndChangesNothing() throws IOException {
        try (ItSession s = ItSession.open(small, "budget-op-it")) {
            Path d = Files.createDirectories(small.exportDir().resolve("op-by-op"));
            Files.writeString(d.resolve("x"), "x");
            Path g = d.resolve("g");
            try (RandomAccessFile raf = new RandomAccessFile(g.toFile(), "rw")) {
                raf.setLength(2 * MIB);
                raf.write(TestData.randomBytes(512 * (int) KIB, 4)); // 512 KiB of data, then a 1.5 MiB hole
            }
            Map<String, FileState> before = states(d);
            byte[] dh = s.nfs().lookup(s.nfs().rootFh(), "op-by-op");
            long client = s.session().clientId();

            // A RENAME makes the transaction prepare its undo operation by operation. Planned (at the start):
            // the WRITE saves a hole, the truncation 512 KiB; but the WRITE fills 1 MiB of the hole first, so
            // the truncation needs 1.5 MiB when it comes: refused there, and the RENAME and WRITE are undone.
            CompoundResult r = s.session().executeTransaction(new CompoundBuilder().putfh(dh).savefh().rename("x", "y")
                    .putfh(dh).openExisting(client, s.nfs().openOwner(), "g", OPEN4args.OPEN4_SHARE_ACCESS_WRITE)
                    .write(CompoundBuilder.currentStateid(), MIB, TestData.randomBytes((int) MIB, 5))
                    .setattr(Attrs.builder().size(0).build()));

            assertThat(r.status()).as("%s", r).isEqualTo(NfsStatus.NOSPC);
            assertThat(states(d)).as("nothing changed").isEqualTo(before);
            assertThat(leftoversEventually(small)).isEmpty();
        }
    }

    @Test
    void transactionsOverTheServerWideBudgetGetNoSpcAndChangeNothing() throws Exception {
        int clients = 6;
        {
            Path d = Files.createDirectories(small.exportDir().resolve("server-wide"));
            List<ItSession> sessions = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            int refused = 0;
            int committed = 0;
            try {
                for (int i = 0; i < clients; i++) {
                    sessions.add(ItSession.open(small, "budget-all-" + i));
                }
                byte[] dh = sessions.get(0).nfs().lookup(sessions.get(0).nfs().rootFh(), "server-wide");
                for (int round = 0; round < 10 && refused == 0; round++) {
                    for (int i = 0; i < clients; i++) {
                        // 800 KiB each: one transaction fits (1 MiB), two at once do not (1.5 MiB in all)
                        Files.write(d.resolve("f" + i), TestData.randomBytes(800 * (int) KIB, round * 100 + i));
                    }
                    Map<String, FileState> before = states(d);
                    CountDownLatch go = new CountDownLatch(1);
                    List<Future<CompoundResult>> results = new ArrayList<>();
                    for (int i = 0; i < clients; i++) {
                        ItSession s = sessions.get(i);
                        String f = "f" + i;
                        Callable<CompoundResult> txn = () -> {
                            go.await();
                            return s.session().executeTransaction(new CompoundBuilder().putfh(dh).lookup(f)
                                    .setattr(Attrs.builder().size(0).build()));
                        };
                        results.add(pool.submit(txn));
                    }
                    go.countDown();
                    for (int i = 0; i < clients; i++) {
                        CompoundResult r = results.get(i).get(60, TimeUnit.SECONDS);
                        Path f = d.resolve("f" + i);
                        if (r.status() == NfsStatus.NOSPC) {
                            refused++;
                            assertThat(FileState.of(f)).as("f%d after NFS4ERR_NOSPC", i)
                                    .isEqualTo(before.get("f" + i));
                        } else {
                            assertThat(r.status()).as("f%d: %s", i, r).isEqualTo(NfsStatus.OK);
                            committed++;
                            assertThat(Files.size(f)).isZero();
                        }
                    }
                }
            } finally {
                pool.shutdownNow();
                for (ItSession s : sessions) {
                    s.close();
                }
            }
            System.out.printf("%s server-wide budget: %d transactions refused, %d committed%n",
                    getClass().getSimpleName(), refused, committed);
            assertThat(refused).as("transactions refused for the server-wide budget").isPositive();
            assertThat(committed).as("transactions committed").isPositive();
            assertThat(small.output()).as("log lines (one per 10 s at most)").contains("refused with NFS4ERR_NOSPC");
        }
    }

    @Test
    @Tag("crash")
    void crashRecoveryRestoresASparseFileWithItsHoles() throws IOException {
        Path d = Files.createDirectories(small.exportDir().resolve("crash"));
        Path file = sparseFile(d, "crash", 2 * GIB + 128 * KIB);
        FileState before = FileState.of(file);
        ItSession s = ItSession.open(small, "crash-it");
        try {
            byte[] dh = s.nfs().lookup(s.nfs().rootFh(), "crash");
            CompoundBuilder c = new CompoundBuilder().putfh(dh)
                    .openExisting(s.session().clientId(), s.nfs().openOwner(), "crash",
                            OPEN4args.OPEN4_SHARE_ACCESS_WRITE)
                    .write(CompoundBuilder.currentStateid(), GIB, TestData.randomBytes(64 * (int) KIB, 5))
                    .write(CompoundBuilder.currentStateid(), 3 * MIB, "x".getBytes(StandardCharsets.UTF_8))
                    .setattr(Attrs.builder().size(4096).build());
            while (c.size() <= CRASH_OP) {
                c.putfh(dh); // every change is made: the crash comes before the commit point
            }
            s.session().executeTransaction(c);
        } catch (IOException expected) {
            // the server halted at the crash point: no reply
        } finally {
            try {
                s.connection().close();
            } catch (IOException | RuntimeException ignored) {
                // the connection died with the server
            }
        }
        assertThat(small.awaitExit(Duration.ofSeconds(30))).as("exit status at the crash point")
                .isEqualTo(CrashPoints.EXIT_STATUS);
        FileState crashed = FileState.of(file);
        assertThat(crashed.size()).as("the crash came after the truncation").isEqualTo(4096);

        small.setJvmArgs();
        long started = System.nanoTime();
        small.relaunch();
        long nanos = System.nanoTime() - started;

        FileState after = FileState.of(file);
        report("kill at before-op-" + CRASH_OP + ", restart with recovery", nanos, new IoCounters(0, 0), crashed,
                after);
        assertThat(after).as("the file after recovery").isEqualTo(before);
        assertThat(leftoversEventually(small)).isEmpty();
    }

    // ---- helpers

    /**
     * A file with data only at {@code [0, 64 KiB)} and in its last 64 KiB; the rest (almost all of it) is a
     * hole. Sized first, so no write extends it.
     */
    private Path sparseFile(String fileName, long size) throws IOException {
        return sparseFile(dirPath, fileName, size);
    }

    private static Path sparseFile(Path directory, String fileName, long size) throws IOException {
        Path file = directory.resolve(fileName);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(size);
            raf.seek(0);
            raf.write(TestData.randomBytes(64 * (int) KIB, size));
            raf.seek(size - 64 * KIB);
            raf.write(TestData.randomBytes(64 * (int) KIB, size + 1));
        }
        return file;
    }

    private static Map<String, FileState> states(Path d) throws IOException {
        Map<String, FileState> result = new TreeMap<>();
        try (Stream<Path> files = Files.list(d)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                result.put(f.getFileName().toString(), FileState.of(f));
            }
        }
        return result;
    }

    private void assertNoBackupsLeft() throws IOException {
        assertThat(leftoversEventually(server)).as("backup directories left").isEmpty();
    }

    /** The backup directories still there after the background cleaner had up to 10 s. */
    private static List<String> leftoversEventually(ServerProcess s) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> left = leftovers(s);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            sleep(50);
            left = leftovers(s);
        }
        return left;
    }

    private static List<String> leftovers(ServerProcess s) throws IOException {
        Path area = s.exportDir().resolve(".tcnfs").resolve("txn");
        if (!Files.isDirectory(area)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(area)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private void report(String what, long nanos, IoCounters written, FileState before, FileState after) {
        System.out.printf("%s %s: %.1f ms, server wrote %d bytes (wchar) / %d bytes (write_bytes); size %d -> %d, "
                        + "st_blocks %d -> %d, allocated %d -> %d bytes%n", getClass().getSimpleName(), what,
                nanos / 1e6, written.wchar(), written.writeBytes(), before.size(), after.size(), before.blocks(),
                after.blocks(), before.allocated(), after.allocated());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * What a sparse file is: its size, its allocated extents ({@code SEEK_DATA}/{@code SEEK_HOLE}) with a
     * SHA-256 of each one's bytes, and its {@code st_blocks}. Equal states mean equal content (the rest is
     * holes, which read as zeros) and equal sparseness.
     */
    record FileState(long size, List<String> extents, long allocated, long blocks) {
        static FileState of(Path file) throws IOException {
            List<String> extents = new ArrayList<>();
            long allocated = Reflink.load().walkData(file, 0, Long.MAX_VALUE, (start, end) -> {
                extents.add(start + "+" + (end - start) + ":" + TestData.sha256(read(file, start, end - start)));
            });
            return new FileState(Files.size(file), List.copyOf(extents), allocated, blocks(file));
        }

        private static byte[] read(Path file, long offset, long length) throws IOException {
            if (length > 64 * MIB) {
                throw new IllegalStateException("extent of " + length + " bytes at " + offset + " in " + file
                        + ": the file is not sparse");
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) length);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                while (buffer.hasRemaining() && ch.read(buffer, offset + buffer.position()) > 0) {
                    // reading
                }
            }
            return buffer.array();
        }

        private static long blocks(Path file) throws IOException {
            Process p = new ProcessBuilder("stat", "--format=%b", file.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            return Long.parseLong(out);
        }
    }

    /** The {@code wchar} and {@code write_bytes} counters of {@code /proc/<pid>/io}. */
    record IoCounters(long wchar, long writeBytes) {
        static IoCounters of(long pid) throws IOException {
            long wchar = 0;
            long writeBytes = 0;
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "io"))) {
                if (line.startsWith("wchar:")) {
                    wchar = Long.parseLong(line.substring(6).trim());
                } else if (line.startsWith("write_bytes:")) {
                    writeBytes = Long.parseLong(line.substring(12).trim());
                }
            }
            return new IoCounters(wchar, writeBytes);
        }

        IoCounters minus(IoCounters earlier) {
            return new IoCounters(wchar - earlier.wchar, writeBytes - earlier.writeBytes);
        }
    }
}
