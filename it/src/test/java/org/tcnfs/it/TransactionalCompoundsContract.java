package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.it.TestData.randomBytes;
import static org.tcnfs.it.TestData.sha256;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_NUMLINKS;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TYPE;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.client.rpc.RawReply;
import org.tcnfs.client.rpc.RpcAcceptStatus;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.txn.handles.HandleSnapshot;
import org.tcnfs.txn.handles.HandleTable;

/**
 * Transactional compounds (procedure 0x80000001) through the wire against the real server process: a
 * compound whose last operation fails leaves the export as it was (names, types, sizes, modes, contents
 * by SHA-256), handles taken before keep working, and no recovery record or backup remains; a compound
 * that succeeds applies everything. Subclasses choose the file system the server's directories live on.
 */
abstract class TransactionalCompoundsContract extends SharedServerTest {
    private ItSession itSession;
    private NfsOps nfs;
    private Path dirPath;
    private byte[] dir;

    /** Where the server's export and state directories go, as the {@code tcnfs.it.work} property would say. */
    @Override
    abstract Path workDirectory() throws IOException;

    @BeforeEach
    void openSessionAndTree(TestInfo test) throws IOException {
        connect();
        String name = test.getTestMethod().orElseThrow().getName();
        dirPath = server.exportDir().resolve(name);
        makeTree(dirPath);
        dir = nfs.lookup(nfs.rootFh(), name);
    }

    @AfterEach
    void closeSession() throws IOException {
        disconnect();
    }

    private void connect() throws IOException {
        itSession = ItSession.open(server, "txn-it");
        nfs = itSession.nfs();
    }

    private void disconnect() throws IOException {
        if (itSession != null) {
            itSession.close();
            itSession = null;
        }
    }

    // ---- the tree every test starts from

    private static final List<String> FILES = List.of("a", "r", "s", "t", "u", "m", "z", "passwd", "group", "shadow");

    private static void makeTree(Path d) throws IOException {
        Files.createDirectories(d);
        int size = 10_000;
        for (String name : FILES) {
            size += 1111;
            Files.write(d.resolve(name), randomBytes(size, name.hashCode()));
            Files.setPosixFilePermissions(d.resolve(name), PosixFilePermissions.fromString("rw-r--r--"));
        }
        Files.setPosixFilePermissions(d.resolve("m"), PosixFilePermissions.fromString("rw-------"));
        Files.createDirectory(d.resolve("ed"));
        Files.createDirectories(d.resolve("sub"));
        Files.write(d.resolve("sub").resolve("k"), randomBytes(777, 7));
    }

    /** Names, types, sizes, modes and contents (SHA-256) of everything under {@code root}, by relative path. */
    private static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> result = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String type = Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? "dir"
                        : Files.isSymbolicLink(p) ? "symlink" : "file";
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
                String what = type + " " + PosixFilePermissions.toString(perms);
                if (type.equals("file")) {
                    what += " " + Files.size(p) + " " + sha256(Files.readAllBytes(p))
                            + " links=" + Files.getAttribute(p, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
                }
                result.put(root.relativize(p).toString(), what);
            }
        }
        return result;
    }

    /** The handles of the test directory's entries, taken by LOOKUP before any transaction. */
    private Map<String, byte[]> handles() throws IOException {
        Map<String, byte[]> result = new LinkedHashMap<>();
        result.put(".", dir);
        for (String name : FILES) {
            result.put(name, nfs.lookup(dir, name));
        }
        result.put("ed", nfs.lookup(dir, "ed"));
        result.put("sub", nfs.lookup(dir, "sub"));
        result.put("sub/k", nfs.lookup(result.get("sub"), "k"));
        return result;
    }

    private void assertHandlesWork(Map<String, byte[]> handles, String after) throws IOException {
        for (Map.Entry<String, byte[]> e : handles.entrySet()) {
            CompoundResult r = nfs.run(new CompoundBuilder().putfh(e.getValue()).getattr(FATTR4_TYPE));
            assertThat(r.status()).as("GETATTR by the old handle of %s after %s", e.getKey(), after)
                    .isEqualTo(NfsStatus.OK);
        }
    }

    private void assertNoBackupsLeft() throws IOException {
        Path area = server.exportDir().resolve(".tcnfs").resolve("txn");
        long deadline = System.nanoTime() + 10_000_000_000L;
        List<String> left = List.of();
        while (System.nanoTime() < deadline) {
            left = list(area);
            if (left.isEmpty()) {
                return;
            }
            sleep(50);
        }
        assertThat(left).as("backup directories left in %s", area).isEmpty();
    }

    private static List<String> list(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    // ---- changes and failures, as compound fragments over the test directory's handle

    private record Change(String name, BiFunction<CompoundBuilder, byte[], CompoundBuilder> add) {
    }

    private List<Change> changes() {
        long client = nfs.session().clientId();
        byte[] owner = nfs.openOwner();
        return List.of(
                new Change("WRITE over and past the end", (c, d) -> c.putfh(d)
                        .openExisting(client, owner, "a", OPEN4args.OPEN4_SHARE_ACCESS_WRITE)
                        .write(CompoundBuilder.currentStateid(), 5000, randomBytes(20_000, 11))),
                new Change("OPEN create + WRITE", (c, d) -> c.putfh(d)
                        .openCreate(client, owner, "n", OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                                Attrs.builder().mode(0640).build())
                        .write(CompoundBuilder.currentStateid(), 0, randomBytes(3000, 12))),
                new Change("CREATE dir", (c, d) -> c.putfh(d).mkdir("newdir")),
                new Change("REMOVE file", (c, d) -> c.putfh(d).remove("r")),
                new Change("REMOVE empty dir", (c, d) -> c.putfh(d).remove("ed")),
                new Change("RENAME over an existing file", (c, d) -> c.putfh(d).savefh().rename("s", "t")),
                new Change("RENAME to a new name", (c, d) -> c.putfh(d).savefh().rename("u", "v")),
                new Change("RENAME a directory", (c, d) -> c.putfh(d).savefh().rename("sub", "sub2")),
                new Change("SETATTR mode", (c, d) -> c.putfh(d).lookup("m")
                        .setattr(Attrs.builder().mode(0755).build())),
                new Change("SETATTR size (truncate)", (c, d) -> c.putfh(d).lookup("z")
                        .setattr(Attrs.builder().size(100).build())),
                new Change("LINK", (c, d) -> c.putfh(d).lookup("a").savefh().putfh(d).link("a-link")));
    }

    private record Failure(String name, NfsStatus status, BiFunction<CompoundBuilder, byte[], CompoundBuilder> add) {
    }

    private static final List<Failure> FAILURES = List.of(
            new Failure("LOOKUP of a missing name", NfsStatus.NOENT, (c, d) -> c.putfh(d).lookup("missing")),
            new Failure("REMOVE of a missing name", NfsStatus.NOENT, (c, d) -> c.putfh(d).remove("missing")),
            new Failure("CREATE of an existing name", NfsStatus.EXIST, (c, d) -> c.putfh(d).mkdir("passwd")));

    // ---- tests

    @Test
    void eachChangeIsUndoneWhenTheLastOperationFails() throws IOException {
        Map<String, String> before = snapshot(dirPath);
        Map<String, byte[]> handles = handles();
        for (Change change : changes()) {
            for (Failure failure : FAILURES) {
                CompoundBuilder c = change.add().apply(new CompoundBuilder(), dir);
                c = failure.add().apply(c, dir);
                CompoundResult r = nfs.session().executeTransaction(c);
                String what = change.name() + " then " + failure.name();

                assertThat(r.status()).as("status of %s: %s", what, r).isEqualTo(failure.status());
                assertThat(r.statuses()).as("every op ran, only the last failed: %s", r).hasSize(c.size() + 1)
                        .last().isEqualTo(failure.status());
                assertThat(r.statuses().subList(0, c.size())).as("ops before the failure: %s", r)
                        .containsOnly(NfsStatus.OK);
                assertThat(snapshot(dirPath)).as("tree after %s", what).isEqualTo(before);
                assertHandlesWork(handles, what);
            }
        }
        assertNoBackupsLeft();
    }

    @Test
    void allChangesInOneCompoundAreUndoneWhenTheLastOperationFails() throws IOException {
        Map<String, String> before = snapshot(dirPath);
        Map<String, byte[]> handles = handles();
        for (Failure failure : FAILURES) {
            CompoundBuilder c = new CompoundBuilder();
            for (Change change : changes()) {
                c = change.add().apply(c, dir);
            }
            c = failure.add().apply(c, dir);
            CompoundResult r = nfs.session().executeTransaction(c);

            assertThat(r.status()).as("status: %s", r).isEqualTo(failure.status());
            assertThat(r.statuses().subList(0, c.size())).as("ops before the failure: %s", r)
                    .containsOnly(NfsStatus.OK);
            assertThat(snapshot(dirPath)).as("tree after all changes then %s", failure.name()).isEqualTo(before);
            assertHandlesWork(handles, "all changes then " + failure.name());
        }
        assertNoBackupsLeft();
    }

    @Test
    void successfulTransactionAppliesEveryChange() throws IOException {
        Map<String, String> before = snapshot(dirPath);
        byte[] oldS = Files.readAllBytes(dirPath.resolve("s"));
        byte[] oldU = Files.readAllBytes(dirPath.resolve("u"));
        CompoundBuilder c = new CompoundBuilder();
        for (Change change : changes()) {
            c = change.add().apply(c, dir);
        }
        CompoundResult r = nfs.session().executeTransaction(c);

        assertThat(r.status()).as("status: %s", r).isEqualTo(NfsStatus.OK);
        Map<String, String> after = snapshot(dirPath);
        assertThat(after).doesNotContainKeys("r", "ed", "s", "u", "sub", "sub/k")
                .containsKeys("n", "newdir", "v", "sub2", "sub2/k", "a-link");
        assertThat(Files.size(dirPath.resolve("a"))).isEqualTo(25_000);
        assertThat(Files.size(dirPath.resolve("n"))).isEqualTo(3000);
        assertThat(Files.readAllBytes(dirPath.resolve("t"))).isEqualTo(oldS);
        assertThat(Files.readAllBytes(dirPath.resolve("v"))).isEqualTo(oldU);
        assertThat(after.get("m")).startsWith("file rwxr-xr-x");
        assertThat(Files.size(dirPath.resolve("z"))).isEqualTo(100);
        assertThat(after.get("passwd")).isEqualTo(before.get("passwd"));
        assertThat(nfs.getattr(nfs.lookup(dir, "a-link"), FATTR4_NUMLINKS).numlinks()).isEqualTo(2);
        assertNoBackupsLeft();
    }

    @Test
    void passwdGroupShadowStayUnchangedWhenTheLastWriteFails() throws IOException {
        Map<String, String> before = snapshot(dirPath);
        long client = nfs.session().clientId();
        byte[] owner = nfs.openOwner();
        CompoundBuilder c = new CompoundBuilder();
        for (String name : List.of("passwd", "group")) {
            c.putfh(dir).openExisting(client, owner, name, OPEN4args.OPEN4_SHARE_ACCESS_WRITE)
                    .write(CompoundBuilder.currentStateid(), 0, ("new " + name + "\n").getBytes(StandardCharsets.UTF_8))
                    .setattr(Attrs.builder().size(("new " + name + "\n").length()).build());
        }
        c.putfh(dir).openExisting(client, owner, "shadow", OPEN4args.OPEN4_SHARE_ACCESS_WRITE)
                .setattr(Attrs.builder().size(0).build())
                // the last write goes to the directory: it fails for a real reason
                .putfh(dir).write(CompoundBuilder.anonymousStateid(), 0, "new shadow\n".getBytes(StandardCharsets.UTF_8));
        CompoundResult r = nfs.session().executeTransaction(c);

        assertThat(r.status()).as("status: %s", r).isNotEqualTo(NfsStatus.OK);
        assertThat(r.statuses().subList(0, r.statuses().size() - 1)).as("all but the last op succeeded: %s", r)
                .containsOnly(NfsStatus.OK);
        assertThat(snapshot(dirPath)).isEqualTo(before);
        assertNoBackupsLeft();
    }

    @Test
    void noRecoveryRecordRemainsAfterCommitsAndRollbacks() throws IOException {
        CompoundBuilder fails = new CompoundBuilder().putfh(dir).remove("r").putfh(dir).lookup("missing");
        CompoundBuilder succeeds = new CompoundBuilder().putfh(dir).remove("r");
        assertThat(nfs.session().executeTransaction(fails).status()).isEqualTo(NfsStatus.NOENT);
        assertThat(nfs.session().executeTransaction(succeeds).status()).isEqualTo(NfsStatus.OK);
        assertNoBackupsLeft();
        String scraped = server.scrapeMetrics();
        assertThat(ServerProcess.metric(scraped, "tcnfs_txn_commits_total").orElse(-1)).as("commits in %s", scraped)
                .isGreaterThanOrEqualTo(1);
        assertThat(ServerProcess.metric(scraped, "tcnfs_txn_rollbacks_total").orElse(-1)).as("rollbacks")
                .isGreaterThanOrEqualTo(1);
        assertThat(ServerProcess.metric(scraped, "tcnfs_txn_undo_failures_total").orElse(-1)).as("undo failures")
                .isZero();
        disconnect();
        server.stop();
        List<String> records = new ArrayList<>();
        HandleTable table = HandleTable.open(server.stateDir().resolve("handles"));
        try {
            var side = table.sideTable("txn-records");
            try (HandleSnapshot snapshot = table.read()) {
                snapshot.forEach(side, (k, v) -> records.add(HexFormat.of().formatHex(k)));
            }
        } finally {
            table.close();
        }
        server.restart();
        connect();

        assertThat(records).as("recovery records left in LMDB").isEmpty();
    }

    @Test
    void plainReadersSeeAllOrNoneOfATransaction() throws Exception {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            names.add("x" + i);
        }
        byte[] sub = nfs.lookup(dir, "sub");
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.ConcurrentLinkedQueue<String> partial = new java.util.concurrent.ConcurrentLinkedQueue<>();
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        Thread reader = new Thread(() -> {
            try (NfsConnection c = server.connect(); Nfs41Session s = Nfs41Session.create(c, "txn-reader")) {
                NfsOps readerOps = new NfsOps(s);
                while (!done.get()) {
                    List<String> seen = readerOps.readdirNames(sub).stream().filter(n -> n.startsWith("x")).toList();
                    reads.incrementAndGet();
                    if (!seen.isEmpty() && seen.size() != names.size()) {
                        partial.add(seen.toString());
                    }
                }
            } catch (IOException e) {
                partial.add("reader failed: " + e);
            }
        });
        reader.start();
        try {
            for (int round = 0; round < 100; round++) {
                CompoundBuilder create = new CompoundBuilder();
                CompoundBuilder remove = new CompoundBuilder();
                for (String name : names) {
                    create.putfh(sub).mkdir(name);
                    remove.putfh(sub).remove(name);
                }
                assertThat(nfs.session().executeTransaction(create).status()).isEqualTo(NfsStatus.OK);
                assertThat(nfs.session().executeTransaction(remove).status()).isEqualTo(NfsStatus.OK);
            }
        } finally {
            done.set(true);
            reader.join(30_000);
        }

        assertThat(reads.get()).as("listings read").isPositive();
        assertThat(partial).as("listings that saw part of a transaction").isEmpty();
    }

    @Test
    void transactionFlagIsAcceptedByThisServer() throws IOException {
        RawReply reply = itSession.connection().callRaw(NfsConnection.PROC_COMPOUND_TXN, new byte[0]);

        assertThat(reply.acceptStatus()).isNotEqualTo(RpcAcceptStatus.PROC_UNAVAIL);
    }
}
