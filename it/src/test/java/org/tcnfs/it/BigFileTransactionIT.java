package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.it.CliRunner.tcnfs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
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
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BigFileTransactionIT {
    private static final int BIG = 3 * 1024 * 1024 + 12345;

    private ServerProcess server;
    private Path tmp;
    private String url;

    @BeforeAll
    void start() throws IOException {
        server = ServerProcess.startIn(ServerProcess.defaultWorkDirectory(), List.of(), "--max-request", "256KiB");
        tmp = Files.createTempDirectory(ServerProcess.defaultWorkDirectory(), "big-txn-");
        url = "nfs://127.0.0.1:" + server.port() + "/";
    }

    @AfterAll
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        ServerProcess.deleteTree(tmp);
    }

    private static byte[] random(int size, long seed) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    private static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
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
        Random random = new Random(6);
        byte[] block = new byte[64 * 1024];
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (FileChannel ch = FileChannel.open(local, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int mib = 0; mib < 80; mib++) { // 80 MiB: 64 KiB of random bytes at the start of each MiB
                random.nextBytes(block);
                ch.write(ByteBuffer.wrap(block), mib * 1024L * 1024);
            }
            ch.truncate(80L * 1024 * 1024);
            if (ch.size() < 80L * 1024 * 1024) {
                ch.write(ByteBuffer.wrap(new byte[1]), 80L * 1024 * 1024 - 1);
            }
        }
        try (FileChannel ch = FileChannel.open(local)) {
            ByteBuffer buf = ByteBuffer.allocate(1 << 20);
            while (ch.read(buf) > 0) {
                buf.flip();
                digest.update(buf);
                buf.clear();
            }
        }
        String expected = HexFormat.of().formatHex(digest.digest());
        Files.createDirectories(server.exportDir().resolve("heap"));

        List<String> command = List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx48m", "-XX:+UseSerialGC", "-jar", CliRunner.clientJar().toString(), "put", "--no-progress", "--txn",
                local.toString(), url + "heap/heap.bin");
        Path output = tmp.resolve("heap-cli.txt");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("tcnfs put --txn did not finish in 120 s");
        }

        assertThat(p.exitValue()).as(Files.readString(output)).isZero();
        MessageDigest remote = MessageDigest.getInstance("SHA-256");
        try (FileChannel ch = FileChannel.open(server.exportDir().resolve("heap/heap.bin"))) {
            ByteBuffer buf = ByteBuffer.allocate(1 << 20);
            while (ch.read(buf) > 0) {
                buf.flip();
                remote.update(buf);
                buf.clear();
            }
        }
        assertThat(HexFormat.of().formatHex(remote.digest())).isEqualTo(expected);
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
