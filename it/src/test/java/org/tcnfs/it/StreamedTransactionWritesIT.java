package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The command line's other transactions that write local files read them as they are sent (issue 15 item 3):
 * {@code cp -R --txn} of a local tree and {@code apply} with {@code write} lines, each with a file larger than the
 * client's 48 MiB heap, commit with the right checksums (before, both read every file whole into memory).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamedTransactionWritesIT {
    private static final long BIG = 64L * 1024 * 1024 + 999;

    private ServerProcess server;
    private Path tmp;
    private String url;

    @BeforeAll
    void start() throws IOException {
        server = ServerProcess.startIn(ServerProcess.defaultWorkDirectory(), List.of());
        tmp = Files.createTempDirectory(ServerProcess.defaultWorkDirectory(), "streamed-txn-");
        url = "nfs://127.0.0.1:" + server.port() + "/";
    }

    @AfterAll
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        ServerProcess.deleteTree(tmp);
    }

    /** A file of {@code size} bytes, 64 KiB of random bytes at the start of each MiB (quick to make and to hash). */
    private static void bigFile(Path p, long size, long seed) throws IOException {
        Random random = new Random(seed);
        byte[] block = new byte[64 * 1024];
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long at = 0; at < size; at += 1024 * 1024) {
                random.nextBytes(block);
                ch.write(ByteBuffer.wrap(block, 0, (int) Math.min(block.length, size - at)), at);
            }
            if (ch.size() < size) {
                ch.write(ByteBuffer.wrap(new byte[1]), size - 1);
            }
        }
    }

    private static String sha256(Path p) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (FileChannel ch = FileChannel.open(p)) {
            ByteBuffer buf = ByteBuffer.allocate(1 << 20);
            while (ch.read(buf) > 0) {
                buf.flip();
                digest.update(buf);
                buf.clear();
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private int cli(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx48m", "-XX:+UseSerialGC", "-jar", CliRunner.clientJar().toString()));
        command.addAll(List.of(args));
        Path output = Files.createTempFile(tmp, "cli-", ".txt");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("tcnfs " + args[0] + " did not finish in 180 s");
        }
        assertThat(p.exitValue()).as(Files.readString(output)).isZero();
        return p.exitValue();
    }

    @Test
    void cpRecursiveTxnOfATreeWithAFileLargerThanTheClientHeapCommitsWithEveryChecksum() throws Exception {
        Path tree = tmp.resolve("tree");
        Files.createDirectories(tree.resolve("sub"));
        bigFile(tree.resolve("sub/big.bin"), BIG, 1);
        for (int i = 0; i < 50; i++) {
            Files.writeString(tree.resolve("small" + i + ".txt"), "file " + i + "\n");
        }

        cli("cp", "--no-progress", "-R", "--txn", tree.toString(), url + "cp-txn");

        Path copy = server.exportDir().resolve("cp-txn");
        assertThat(sha256(copy.resolve("sub/big.bin"))).isEqualTo(sha256(tree.resolve("sub/big.bin")));
        assertThat(copy.resolve("small49.txt")).hasContent("file 49");
    }

    @Test
    void applyWithAWriteOfAFileLargerThanTheClientHeapCommitsWithTheRightChecksum() throws Exception {
        Path dir = tmp.resolve("manifest");
        Files.createDirectories(dir);
        bigFile(dir.resolve("image.bin"), BIG, 2);
        Files.writeString(dir.resolve("m.manifest"), "mkdir apply\nwrite apply/image.bin image.bin\n"
                + "text apply/done ok\n");

        cli("apply", "--no-progress", dir.resolve("m.manifest").toString(), url);

        assertThat(sha256(server.exportDir().resolve("apply/image.bin"))).isEqualTo(sha256(dir.resolve("image.bin")));
        assertThat(server.exportDir().resolve("apply/done")).hasContent("ok");
    }
}
