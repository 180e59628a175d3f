package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.it.TestData.randomBytes;
import static org.tcnfs.it.TestData.sha256;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.vector.DirEntry;
import org.tcnfs.client.vector.FileInfo;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.OpenAccess;
import org.tcnfs.client.vector.OpenFile;
import org.tcnfs.client.vector.Outcome;
import org.tcnfs.client.vector.Parents;
import org.tcnfs.client.vector.Recursion;
import org.tcnfs.client.vector.TransactionsUnsupportedException;
import org.tcnfs.client.vector.TxnItem;
import org.tcnfs.client.vector.VCopy;
import org.tcnfs.client.vector.VLink;
import org.tcnfs.client.vector.VMkdir;
import org.tcnfs.client.vector.VRead;
import org.tcnfs.client.vector.VRemove;
import org.tcnfs.client.vector.VRename;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VSetattr;
import org.tcnfs.client.vector.VSymlink;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.VnfsClient;
import org.tcnfs.client.vector.WriteFlag;
import org.tcnfs.nfs4.status.NfsStatus;

/**
 * The vectorized client (issue 5) against the real server process: every call plain and as a transaction,
 * a failure in the middle of a 100-file vwrite and of a mixed vtxn (nothing written), the paper's
 * passwd/group/shadow example, compound counts (client counter and the server's tcnfs_compounds_total),
 * the refusal of a transaction larger than the session, and the fast failure against a server without
 * transactions.
 */
class VectorClientIT extends VectorClientTest {
    private String p(String name) {
        return path + "/" + name;
    }

    // ---- data

    @Test
    void thousandSmallFilesTakeAHandfulOfCompounds() throws IOException {
        List<VWrite> writes = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            writes.add(VWrite.create(p("f" + i), randomBytes(4096, i)));
        }
        long before = nfs.compoundsSent();
        double serverBefore = serverCompounds();
        VResult<Void> r = nfs.vwrite(writes, Mode.PLAIN);
        long sent = nfs.compoundsSent() - before;
        double serverSaw = serverCompounds() - serverBefore;
        System.out.printf("1,000 x 4 KiB files, plain: %d compounds by the client, %.0f by the server's count"
                + " (session: %d ops, %d bytes per transaction, %d bytes per plain compound)%n", sent, serverSaw,
                nfs.maxOperations(), nfs.maxRequestBytes(), nfs.plainCompoundBytes());

        assertThat(r.isOk()).as("%s", r.firstFailure()).isTrue();
        assertThat(r.compounds()).isEqualTo((int) sent);
        assertThat(sent).as("compounds for 1,000 files (4 MiB in compounds of 1 MiB)").isBetween(4L, 6L);
        assertThat(serverSaw).as("compounds the server ran").isEqualTo((double) sent);
        for (int i : new int[] {0, 1, 499, 999}) {
            assertThat(Files.readAllBytes(remote.resolve("f" + i))).isEqualTo(randomBytes(4096, i));
        }
        try (Stream<Path> s = Files.list(remote)) {
            assertThat(s.count()).isEqualTo(1000);
        }
    }

    @Test
    void unstableWritesAreReadBack() throws IOException {
        try (VnfsClient unstable = VnfsClient.builder().host(server.host()).port(server.port())
                .writeStability(org.tcnfs.client.vector.WriteStability.UNSTABLE).connect()) {
            List<VWrite> writes = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                writes.add(VWrite.create(p("u" + i), randomBytes(3000, i)));
            }
            assertThat(unstable.vwrite(writes, Mode.PLAIN).isOk()).isTrue();
            assertThat(unstable.vwrite(List.of(VWrite.create(p("ut"), randomBytes(10, 1))), Mode.TRANSACTION).committed())
                    .isTrue();
            assertThat(unstable.vread(List.of(VRead.whole(p("u199"))), Mode.PLAIN).value(0)).isEqualTo(randomBytes(3000, 199));
        }
        assertThat(Files.readAllBytes(remote.resolve("u0"))).isEqualTo(randomBytes(3000, 0));
    }

    @Test
    void thousandSmallFilesFitOneTransaction() throws IOException {
        List<VWrite> writes = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            writes.add(VWrite.create(p("t" + i), randomBytes(1024, i)));
        }
        long before = nfs.compoundsSent();
        VResult<Void> r = nfs.vwrite(writes, Mode.TRANSACTION);
        System.out.printf("1,000 x 1 KiB files, one transaction: %d compound(s)%n", nfs.compoundsSent() - before);

        assertThat(r.committed()).isTrue();
        assertThat(nfs.compoundsSent() - before).isEqualTo(1);
        assertThat(Files.readAllBytes(remote.resolve("t999"))).isEqualTo(randomBytes(1024, 999));
    }

    @Test
    void readsReturnWholeFilesIncludingLargeOnes() throws IOException {
        byte[] big = randomBytes(3 * nfs.maxRead() + 123, 9);
        Files.write(remote.resolve("big"), big);
        Files.write(remote.resolve("small"), randomBytes(10, 1));
        Files.write(remote.resolve("mid"), randomBytes(5000, 2));

        VResult<byte[]> r = nfs.vread(List.of(VRead.whole(p("small")), VRead.whole(p("big")),
                new VRead(p("mid"), 100, 50), VRead.whole(p("small"))), Mode.PLAIN);

        assertThat(r.isOk()).isTrue();
        assertThat(r.value(0)).isEqualTo(randomBytes(10, 1));
        assertThat(r.value(1)).isEqualTo(big);
        assertThat(r.value(2)).isEqualTo(java.util.Arrays.copyOfRange(randomBytes(5000, 2), 100, 150));
        VResult<byte[]> missing = nfs.vread(List.of(VRead.whole(p("small")), VRead.whole(p("nope")),
                VRead.whole(p("mid"))), Mode.PLAIN);
        assertThat(missing.firstFailure()).isEqualTo(1);
        assertThat(missing.item(1).status()).isEqualTo(NfsStatus.NOENT);
        assertThat(missing.item(2).outcome()).isEqualTo(Outcome.NOT_RUN);
        assertThat(missing.value(0)).isEqualTo(randomBytes(10, 1));
    }

    @Test
    void largeFileIsWrittenInSeveralCompoundsWhenPlain() throws IOException {
        byte[] big = randomBytes((int) Math.min(nfs.maxRequestBytes() + 3_000_000L, 40_000_000L), 5);
        VResult<Void> r = nfs.vwrite(List.of(VWrite.create(p("big"), big), VWrite.create(p("after"), randomBytes(7, 7))),
                Mode.PLAIN);

        assertThat(r.isOk()).isTrue();
        assertThat(Files.readAllBytes(remote.resolve("big"))).isEqualTo(big);
        // in a transaction it is written in parts, in a transaction that spans compounds
        VResult<Void> txn = nfs.vwrite(List.of(VWrite.create(p("big2"), big)), Mode.TRANSACTION);
        assertThat(txn.isOk()).isTrue();
        assertThat(txn.compounds()).isGreaterThan(2);
        assertThat(Files.readAllBytes(remote.resolve("big2"))).isEqualTo(big);
    }

    @Test
    void writeFlagsCreateTruncateAppendAndExclusive() throws IOException {
        Files.writeString(remote.resolve("log"), "one\n");
        Files.writeString(remote.resolve("keep"), "0123456789");
        VResult<Void> r = nfs.vwrite(List.of(
                VWrite.append(p("log"), "two\n".getBytes(StandardCharsets.UTF_8)),
                VWrite.append(p("newlog"), "first\n".getBytes(StandardCharsets.UTF_8)),
                VWrite.at(p("keep"), 2, "ab".getBytes(StandardCharsets.UTF_8)),
                VWrite.create(p("fresh"), "x".getBytes(StandardCharsets.UTF_8)).withMode(0600)), Mode.PLAIN);

        assertThat(r.isOk()).isTrue();
        assertThat(Files.readString(remote.resolve("log"))).isEqualTo("one\ntwo\n");
        assertThat(Files.readString(remote.resolve("newlog"))).isEqualTo("first\n");
        assertThat(Files.readString(remote.resolve("keep"))).isEqualTo("01ab456789");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(remote.resolve("fresh"))))
                .isEqualTo("rw-------");
        VResult<Void> exclusive = nfs.vwrite(List.of(new VWrite(p("keep"), 0, new byte[1],
                java.util.Set.of(WriteFlag.EXCLUSIVE), 0644)), Mode.PLAIN);
        assertThat(exclusive.item(0).status()).isEqualTo(NfsStatus.EXIST);
        VResult<Void> mustExist = nfs.vwrite(List.of(VWrite.at(p("absent"), 0, new byte[1])), Mode.PLAIN);
        assertThat(mustExist.item(0).status()).isEqualTo(NfsStatus.NOENT);
    }

    // ---- forced failures

    @Test
    void failureInTheMiddleOfATransactionalVwriteOf100FilesWritesNone() throws IOException {
        Files.writeString(remote.resolve("f10"), "old ten");
        Map<String, String> before = snapshot(remote);
        List<VWrite> writes = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            // item 50 goes into a directory that does not exist
            String path = i == 50 ? p("missing-dir/f50") : p("f" + i);
            writes.add(VWrite.create(path, randomBytes(2000, i)));
        }

        VResult<Void> r = nfs.vwrite(writes, Mode.TRANSACTION);

        assertThat(r.committed()).isFalse();
        assertThat(r.firstFailure()).isEqualTo(50);
        assertThat(r.item(50).status()).isEqualTo(NfsStatus.NOENT);
        assertThat(r.items().subList(0, 50)).extracting(i -> i.outcome()).containsOnly(Outcome.UNDONE);
        assertThat(r.items().subList(51, 100)).extracting(i -> i.outcome()).containsOnly(Outcome.NOT_RUN);
        assertThat(snapshot(remote)).as("nothing written, f10 unchanged").isEqualTo(before);
    }

    @Test
    void failureInTheMiddleOfAPlainVwriteKeepsTheItemsBefore() throws IOException {
        List<VWrite> writes = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            writes.add(VWrite.create(i == 50 ? p("missing-dir/f50") : p("f" + i), randomBytes(100, i)));
        }

        VResult<Void> r = nfs.vwrite(writes, Mode.PLAIN);

        assertThat(r.committed()).isFalse();
        assertThat(r.firstFailure()).isEqualTo(50);
        assertThat(r.items().subList(0, 50)).extracting(i -> i.outcome()).containsOnly(Outcome.DONE);
        assertThat(r.items().subList(51, 100)).extracting(i -> i.outcome()).containsOnly(Outcome.NOT_RUN);
        assertThat(remote.resolve("f49")).exists();
        assertThat(remote.resolve("f51")).doesNotExist();
    }

    private void makeMixedTree() throws IOException {
        Files.writeString(remote.resolve("a"), "aaaa");
        Files.writeString(remote.resolve("b"), "bbbb");
        Files.writeString(remote.resolve("c"), "cccc");
        Files.createDirectories(remote.resolve("d"));
        Files.writeString(remote.resolve("d/e"), "eeee");
    }

    private List<TxnItem> mixedItems() {
        return List.of(
                VWrite.create(p("a"), "new a".getBytes(StandardCharsets.UTF_8)),
                VWrite.append(p("b"), "+more".getBytes(StandardCharsets.UTF_8)),
                new VMkdir(p("newdir")),
                VWrite.create(p("newdir/n"), "n".getBytes(StandardCharsets.UTF_8)),
                new VRename(p("c"), p("d/c2")),
                new VRemove(p("d/e")),
                VSetattr.mode(p("a"), 0600),
                new VSymlink(p("sl"), "a"),
                new VLink(p("b"), p("b-link")));
    }

    @Test
    void failureInTheMiddleOfAMixedVtxnChangesNothing() throws IOException {
        makeMixedTree();
        Map<String, String> before = snapshot(remote);
        List<TxnItem> items = new ArrayList<>(mixedItems());
        items.add(5, new VRemove(p("not-there")));

        VResult<Void> r = nfs.vtxn(items);

        assertThat(r.committed()).isFalse();
        assertThat(r.firstFailure()).isEqualTo(5);
        assertThat(r.item(5).status()).isEqualTo(NfsStatus.NOENT);
        assertThat(r.items().subList(0, 5)).extracting(i -> i.outcome()).containsOnly(Outcome.UNDONE);
        assertThat(snapshot(remote)).isEqualTo(before);
    }

    @Test
    void mixedVtxnAppliesEveryKindWhenItCommits() throws IOException {
        makeMixedTree();

        VResult<Void> r = nfs.vtxn(mixedItems());

        assertThat(r.committed()).as("%s", r.items()).isTrue();
        assertThat(r.compounds()).isEqualTo(1);
        assertThat(Files.readString(remote.resolve("a"))).isEqualTo("new a");
        assertThat(Files.readString(remote.resolve("b"))).isEqualTo("bbbb+more");
        assertThat(Files.readString(remote.resolve("newdir/n"))).isEqualTo("n");
        assertThat(Files.readString(remote.resolve("d/c2"))).isEqualTo("cccc");
        assertThat(remote.resolve("c")).doesNotExist();
        assertThat(remote.resolve("d/e")).doesNotExist();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(remote.resolve("a"))))
                .isEqualTo("rw-------");
        assertThat(Files.readSymbolicLink(remote.resolve("sl")).toString()).isEqualTo("a");
        assertThat(Files.getAttribute(remote.resolve("b"), "unix:nlink")).isEqualTo(2);
    }

    @Test
    void passwdGroupShadowAreUpdatedInOneTransaction() throws IOException {
        Files.createDirectories(remote.resolve("etc"));
        Files.writeString(remote.resolve("etc/passwd"), "root:x:0:0:root:/root:/bin/sh\n");
        Files.writeString(remote.resolve("etc/group"), "root:x:0:\n");
        Files.writeString(remote.resolve("etc/shadow"), "root:*:19000:0:99999:7:::\n");
        Map<String, String> before = snapshot(remote);
        List<TxnItem> addAlice = List.of(
                VWrite.append(p("etc/passwd"), "alice:x:1001:1001::/home/alice:/bin/sh\n".getBytes(StandardCharsets.UTF_8)),
                VWrite.append(p("etc/group"), "alice:x:1001:\n".getBytes(StandardCharsets.UTF_8)),
                VWrite.append(p("etc/shadow"), "alice:!:19000:0:99999:7:::\n".getBytes(StandardCharsets.UTF_8)));
        List<TxnItem> failing = new ArrayList<>(addAlice);
        failing.set(2, VWrite.append(p("etc/shadow-missing-dir/shadow"), new byte[1]));

        VResult<Void> failed = nfs.vtxn(failing);
        assertThat(failed.committed()).isFalse();
        assertThat(snapshot(remote)).as("passwd and group untouched when shadow fails").isEqualTo(before);

        VResult<Void> r = nfs.vtxn(addAlice);
        assertThat(r.committed()).isTrue();
        assertThat(Files.readString(remote.resolve("etc/passwd"))).endsWith("alice:x:1001:1001::/home/alice:/bin/sh\n");
        assertThat(Files.readString(remote.resolve("etc/group"))).endsWith("alice:x:1001:\n");
        assertThat(Files.readString(remote.resolve("etc/shadow"))).endsWith("alice:!:19000:0:99999:7:::\n");
    }

    @Test
    void transactionLargerThanOneCompoundSpansCompoundsAndCommitsAsOne() throws IOException {
        List<String> dirs = new ArrayList<>();
        for (int i = 0; i < nfs.maxOperations() + 10; i++) {
            dirs.add(p("d" + i));
        }

        VResult<Void> txn = nfs.vmkdir(dirs, Mode.TRANSACTION, Parents.REQUIRE);
        assertThat(txn.committed()).as("one transaction that spans compounds (docs/protocol.md)").isTrue();
        assertThat(txn.compounds()).as("more than one compound carried it").isGreaterThan(1);
        try (Stream<Path> s = Files.list(remote)) {
            assertThat(s.count()).isEqualTo(dirs.size());
        }

        List<String> more = dirs.stream().map(d -> d + "-plain").toList();
        VResult<Void> plain = nfs.vmkdir(more, Mode.PLAIN, Parents.REQUIRE);
        assertThat(plain.isOk()).isTrue();
        assertThat(plain.compounds()).as("plain split into as few compounds as fit").isBetween(2, 3);
    }

    // ---- names and attributes

    @Test
    void mkdirWithParentsListGetattrSetattrAndLinks() throws IOException {
        Files.createDirectories(remote.resolve("x/exists"));
        VResult<Void> made = nfs.vmkdir(List.of(p("x/exists"), p("x/y/z"), p("x/y/w"), p("q/r/s")), Mode.TRANSACTION,
                Parents.CREATE);
        assertThat(made.committed()).isTrue();
        assertThat(remote.resolve("x/y/z")).isDirectory();
        assertThat(remote.resolve("q/r/s")).isDirectory();

        nfs.vwrite(List.of(VWrite.create(p("x/y/z/f"), randomBytes(33, 3)), VWrite.create(p("q/g"), randomBytes(5, 4))), Mode.PLAIN)
                .orThrow();
        VResult<List<DirEntry>> flat = nfs.vlistdir(List.of(p("x"), p("q")), Recursion.FLAT, Mode.PLAIN);
        assertThat(flat.value(0)).extracting(DirEntry::name).containsExactlyInAnyOrder("exists", "y");
        VResult<List<DirEntry>> deep = nfs.vlistdir(List.of(path), Recursion.RECURSIVE, Mode.PLAIN);
        assertThat(deep.value(0)).extracting(DirEntry::path).contains(p("x/y/z/f"), p("q/r/s"), p("q/g"));
        FileInfo f = deep.value(0).stream().filter(e -> e.path().equals(p("x/y/z/f"))).findFirst().orElseThrow().info();
        assertThat(f.size()).isEqualTo(33);
        assertThat(f.type()).isEqualTo(FileInfo.FileType.REGULAR);

        nfs.vsetattrs(List.of(VSetattr.mode(p("q/g"), 0640), VSetattr.size(p("x/y/z/f"), 10)), Mode.TRANSACTION)
                .orThrow();
        VResult<FileInfo> infos = nfs.vgetattrs(List.of(p("q/g"), p("x/y/z/f"), p("x")), Mode.PLAIN);
        assertThat(infos.value(0).mode()).isEqualTo(0640);
        assertThat(infos.value(1).size()).isEqualTo(10);
        assertThat(infos.value(2).isDirectory()).isTrue();

        nfs.vsymlink(List.of(new VSymlink(p("s1"), "q/g"), new VSymlink(p("s2"), "/abs/target")), Mode.PLAIN).orThrow();
        assertThat(nfs.vreadlink(List.of(p("s1"), p("s2")), Mode.PLAIN).values()).containsExactly("q/g", "/abs/target");
        nfs.vlink(List.of(new VLink(p("q/g"), p("g-hard"))), Mode.PLAIN).orThrow();
        assertThat(Files.getAttribute(remote.resolve("q/g"), "unix:nlink")).isEqualTo(2);
        nfs.vrename(List.of(new VRename(p("g-hard"), p("x/g-moved"))), Mode.PLAIN).orThrow();
        assertThat(remote.resolve("x/g-moved")).exists();
        nfs.vcopy(List.of(new VCopy(p("x/y/z/f"), p("copy-f"))), Mode.TRANSACTION).orThrow();
        assertThat(Files.readAllBytes(remote.resolve("copy-f"))).isEqualTo(Files.readAllBytes(remote.resolve("x/y/z/f")));
        nfs.vremove(List.of(p("s1"), p("s2"), p("x/g-moved"), p("copy-f")), Mode.PLAIN).orThrow();
        assertThat(remote.resolve("s1")).doesNotExist();
        assertThat(remote.resolve("copy-f")).doesNotExist();
    }

    @Test
    void listingOfALargeDirectoryFollowsCookies() throws IOException {
        for (int i = 0; i < 3000; i++) {
            Files.writeString(remote.resolve("entry-with-a-longish-name-" + i), "");
        }
        VResult<List<DirEntry>> r = nfs.vlistdir(List.of(path), Recursion.FLAT, Mode.PLAIN);

        assertThat(r.value(0)).hasSize(3000);
    }

    @Test
    void openAndCloseHandFilesBack() throws IOException {
        Files.writeString(remote.resolve("o1"), "1");
        Files.writeString(remote.resolve("o2"), "2");
        VResult<OpenFile> opened = nfs.vopen(List.of(p("o1"), p("o2")), OpenAccess.READ, Mode.PLAIN);
        assertThat(opened.isOk()).isTrue();
        assertThat(opened.value(0).handle()).isNotEmpty();

        assertThat(nfs.vclose(opened.values(), Mode.PLAIN).isOk()).isTrue();
        assertThat(nfs.vclose(opened.values(), Mode.PLAIN).item(0).status()).isEqualTo(NfsStatus.BAD_STATEID);
    }

    // ---- an export without transactions (txn=never; a server without any answers PROC_UNAVAIL, see
    // GaneshaVectorClientIT)

    @Test
    void transactionalCallToAnExportWithoutTransactionsFailsFast() throws IOException {
        Path exported = Files.createTempDirectory(server.exportDir().getParent(), "plain-");
        Path exports = exported.resolveSibling(exported.getFileName() + ".exports");
        Files.writeString(exports, exported + " 127.0.0.1(rw,no_root_squash,txn=never)\n", StandardCharsets.UTF_8);
        try (ServerProcess plain = ServerProcess.start("--exports", exports.toString());
                VnfsClient c = VnfsClient.builder().host(plain.host()).port(plain.port()).export(exported.toString())
                        .connect()) {
            assertThat(c.vwrite(List.of(VWrite.create("plain-file", new byte[3])), Mode.PLAIN).isOk()).isTrue();
            long start = System.nanoTime();

            assertThatThrownBy(() -> c.vwrite(List.of(VWrite.create("txn-file", new byte[3])), Mode.TRANSACTION))
                    .isInstanceOf(TransactionsUnsupportedException.class)
                    .hasMessageContaining("does not support transactional compounds")
                    .hasMessageContaining("NFS4ERR_NOTSUPP before running any operation");
            assertThat((System.nanoTime() - start) / 1_000_000).as("milliseconds to fail").isLessThan(5000);
            assertThat(exported.resolve("txn-file")).doesNotExist();
            assertThat(exported.resolve("plain-file")).exists();
            assertThatThrownBy(() -> c.vtxn(List.of(new VMkdir("d"), new VRemove("plain-file"))))
                    .isInstanceOf(TransactionsUnsupportedException.class);
            assertThat(exported.resolve("d")).doesNotExist();
            assertThat(exported.resolve("plain-file")).exists();
        }
    }

    // ---- helpers

    private double serverCompounds() throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.metricsPort() + "/metrics"))
                .build();
        String body;
        try {
            body = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        double sum = 0;
        for (String line : body.split("\n")) {
            if (line.startsWith("tcnfs_compounds_total{")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    /** Names, types, modes, link counts and contents of everything under {@code root}. */
    static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path q : (Iterable<Path>) walk::iterator) {
                String what;
                if (Files.isSymbolicLink(q)) {
                    what = "symlink " + Files.readSymbolicLink(q);
                } else if (Files.isDirectory(q)) {
                    what = "dir " + PosixFilePermissions.toString(Files.getPosixFilePermissions(q));
                } else {
                    what = "file " + PosixFilePermissions.toString(Files.getPosixFilePermissions(q)) + " "
                            + sha256(Files.readAllBytes(q)) + " links="
                            + Files.getAttribute(q, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
                }
                out.put(root.relativize(q).toString(), what);
            }
        }
        return out;
    }
}
