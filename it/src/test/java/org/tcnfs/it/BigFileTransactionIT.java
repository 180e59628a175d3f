package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.it.CliRunner.tcnfs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.client.vector.Outcome;
import org.tcnfs.client.vector.TxnItem;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.VnfsClient;
import org.tcnfs.it.CliRunner.Run;

/**
 * A file larger than one compound inside a transaction (issue 15): the client writes it in parts, in a transaction
 * that spans compounds, so the whole file is written or nothing. The server here takes requests of at most 256 KiB,
 * so files of a few MiB need many compounds.
 */
class BigFileTransactionIT extends ScratchServerTest {
    private static final int BIG = 3 * 1024 * 1024 + 12345;

    @Override
    String[] serverOptions() {
        return new String[] {"--max-request", "256KiB"};
    }

    private static byte[] random(int size, long seed) {
        return TestData.randomBytes(size, seed);
    }

    private static String sha256(byte[] data) {
        return TestData.sha256(data);
    }

    @Test
    void putTxnOfAFileLargerThanOneCompoundCommitsWithTheRightChecksumAndMode() throws IOException {
        byte[] data = random(BIG, 1);
        Path local = tmp.resolve("big.bin");
        Files.write(local, data);
        Files.createDirectories(server.exportDir().resolve("put-ok"));

        Run r = tcnfs("put", "--txn", "-m", "600", local.toString(), url + "put-ok/big.bin");

        assertThat(r.status()).as(r.err()).isZero();
        Path written = server.exportDir().resolve("put-ok/big.bin");
        assertThat(sha256(Files.readAllBytes(written))).isEqualTo(sha256(data));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(written))).isEqualTo("rw-------");
    }

    @Test
    void putTxnOfAFileLargerThanTheClientHeapCommitsWithTheRightChecksum() throws Exception {
        Path local = tmp.resolve("heap.bin");
        TestData.mostlyHoles(local, 80L * 1024 * 1024, 6); // 80 MiB, over the client's 48 MiB heap
        String expected = TestData.sha256(local);
        Files.createDirectories(server.exportDir().resolve("heap"));

        Run r = CliRunner.child("48m", tmp, 120, "put", "--no-progress", "--txn", local.toString(),
                url + "heap/heap.bin");

        assertThat(r.status()).as(r.out()).isZero();
        assertThat(TestData.sha256(server.exportDir().resolve("heap/heap.bin"))).isEqualTo(expected);
    }

    @Test
    void putTxnWhoseLaterItemFailsLeavesNothingOfTheBigFileAndTheOldContent() throws IOException {
        Path dir = server.exportDir().resolve("put-fail");
        Files.createDirectories(dir.resolve("second.txt")); // a directory where the second file should go
        Files.writeString(dir.resolve("big.bin"), "old content");
        Path local = tmp.resolve("put-fail");
        Files.createDirectories(local);
        Files.write(local.resolve("big.bin"), random(BIG, 2));
        Files.writeString(local.resolve("second.txt"), "second");

        Run r = tcnfs("put", "--txn", local.resolve("big.bin").toString(), local.resolve("second.txt").toString(),
                url + "put-fail/");

        assertThat(r.status()).as(r.out()).isNotZero();
        // the failure is the second file's (its label, after the big file's parts), not a refusal before sending
        assertThat(r.err()).contains("put-fail/second.txt").contains("transaction rolled back, nothing changed");
        assertThat(dir.resolve("big.bin")).hasContent("old content");
        assertThat(dir.resolve("second.txt")).isDirectory();
    }

    @Test
    void vtxnWithAWriteLargerThanOneCompoundAndAFailingLastItemReportsPerItemAndLeavesNothing() throws IOException {
        Files.createDirectories(server.exportDir().resolve("vtxn-fail"));
        List<TxnItem> items = List.of(VWrite.create("vtxn-fail/small", "small".getBytes(StandardCharsets.UTF_8)),
                VWrite.create("vtxn-fail/big.bin", random(BIG, 3)),
                VWrite.create("vtxn-fail/no-such-dir/x", new byte[1]));
        try (VnfsClient nfs = VnfsClient.builder().host("127.0.0.1").port(server.port()).export("/").connect()) {
            VResult<Void> r = nfs.vtxn(items);

            assertThat(r.committed()).isFalse();
            assertThat(r.items()).hasSize(3);
            assertThat(r.firstFailure()).isEqualTo(2);
            assertThat(r.item(0).outcome()).isEqualTo(Outcome.UNDONE);
            assertThat(r.item(1).outcome()).isEqualTo(Outcome.UNDONE);
            assertThat(r.compounds()).as("compounds sent").isGreaterThan(5);
        }
        try (var s = Files.list(server.exportDir().resolve("vtxn-fail"))) {
            assertThat(s.toList()).isEmpty();
        }
    }

    @Test
    void transactionalAppendLargerThanOneCompoundGoesAfterTheOldEnd() throws IOException {
        Files.createDirectories(server.exportDir().resolve("append"));
        Files.writeString(server.exportDir().resolve("append/log"), "head\n");
        byte[] big = random(BIG, 5);
        try (VnfsClient nfs = VnfsClient.builder().host("127.0.0.1").port(server.port()).export("/").connect()) {
            VResult<Void> r = nfs.vwrite(List.of(VWrite.append("append/log", big)),
                    Mode.TRANSACTION);

            assertThat(r.isOk()).isTrue();
            assertThat(r.items()).hasSize(1);
        }
        byte[] expected = new byte[5 + big.length];
        System.arraycopy("head\n".getBytes(StandardCharsets.UTF_8), 0, expected, 0, 5);
        System.arraycopy(big, 0, expected, 5, big.length);
        assertThat(sha256(Files.readAllBytes(server.exportDir().resolve("append/log")))).isEqualTo(sha256(expected));
    }

    @Test
    void untarAtomicOfAnArchiveWithAFileLargerThanOneCompoundCommits() throws IOException {
        byte[] big = random(BIG, 4);
        Path archive = tmp.resolve("big.tar");
        try (OutputStream out = Files.newOutputStream(archive);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            entry(tar, "pkg/README", "read me".getBytes(StandardCharsets.UTF_8));
            entry(tar, "pkg/data/big.bin", big);
            entry(tar, "pkg/data/after.txt", "after".getBytes(StandardCharsets.UTF_8));
        }

        Run r = tcnfs("untar", "--atomic", archive.toString(), url + "untar-big");

        assertThat(r.status()).as(r.err()).isZero();
        Path root = server.exportDir().resolve("untar-big");
        assertThat(sha256(Files.readAllBytes(root.resolve("pkg/data/big.bin")))).isEqualTo(sha256(big));
        assertThat(root.resolve("pkg/README")).hasContent("read me");
        assertThat(root.resolve("pkg/data/after.txt")).hasContent("after");
    }

    private static void entry(TarArchiveOutputStream tar, String name, byte[] data) throws IOException {
        TarArchiveEntry e = new TarArchiveEntry(name);
        e.setSize(data.length);
        e.setMode(0644);
        tar.putArchiveEntry(e);
        tar.write(data);
        tar.closeArchiveEntry();
    }
}
