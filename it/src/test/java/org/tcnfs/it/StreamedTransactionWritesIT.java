package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The command line's other transactions that write local files read them as they are sent (issue 15 item 3):
 * {@code cp -R --txn} of a local tree and {@code apply} with {@code write} lines, each with a file larger than the
 * client's 48 MiB heap, commit with the right checksums (before, both read every file whole into memory).
 */
class StreamedTransactionWritesIT extends ScratchServerTest {
    private static final long BIG = 64L * 1024 * 1024 + 999;

    private static void bigFile(Path p, long size, long seed) throws IOException {
        TestData.mostlyHoles(p, size, seed);
    }

    private static String sha256(Path p) throws IOException {
        return TestData.sha256(p);
    }

    /** The command line in a JVM with a 48 MiB heap; it must exit with status 0 within 180 s. */
    private int cli(String... args) throws Exception {
        CliRunner.Run r = CliRunner.child("48m", tmp, 180, args);
        assertThat(r.status()).as(r.out()).isZero();
        return r.status();
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
