package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.junit.jupiter.api.Test;

/**
 * {@code tcnfs untar --atomic} of archives larger than the client's heap (issue 15 items 3 and 4, scaled down: 5,000
 * entries and ~41 MiB instead of 50,000 and 1 GiB, which docs/benchmarks.md runs by hand): the members are read
 * from the archive as the transaction that spans compounds sends them, so the command line runs in a 32 MiB heap;
 * the archive commits whole, with every file's checksum, and the same archive with a bad last entry (a hard link
 * to a name that does not exist, refused by the server in the last compound) leaves nothing behind. The server
 * runs with its defaults (16 MiB compounds, transactions on request).
 */
class AtomicUntarIT extends ScratchServerTest {
    private static final String HEAP = "32m";
    private static final int BIG_MEMBER = 8 * 1024 * 1024 + 4321;

    /** Relative path to SHA-256 of every file of the archive made by {@link #archive}. */
    private final Map<String, String> expected = new TreeMap<>();

    /**
     * An archive of {@code entries} entries: 100 directory entries, one member of {@code big} random bytes, the
     * rest files of 1-12 KiB spread over the directories; with {@code badLastEntry} a final hard link to a name the
     * archive does not have.
     */
    private Path archive(String name, int entries, int big, boolean gzip, boolean badLastEntry) throws IOException {
        Path p = tmp.resolve(name);
        Random random = new Random(15);
        expected.clear();
        try (OutputStream raw = Files.newOutputStream(p);
                OutputStream out = gzip ? new GzipCompressorOutputStream(raw) : raw;
                TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (int d = 0; d < 100; d++) {
                TarArchiveEntry dir = new TarArchiveEntry("tree/d" + d % 10 + "/s" + d + "/");
                dir.setMode(0755);
                tar.putArchiveEntry(dir);
                tar.closeArchiveEntry();
            }
            for (int i = 0; i < entries - 100; i++) {
                byte[] data = new byte[i == 7 ? big : 1024 + random.nextInt(11 * 1024)];
                random.nextBytes(data);
                String file = "tree/d" + i % 10 + "/s" + i % 100 + "/f" + i + (i == 7 ? ".big" : ".c");
                TarArchiveEntry e = new TarArchiveEntry(file);
                e.setSize(data.length);
                e.setMode(i % 2 == 0 ? 0644 : 0755);
                tar.putArchiveEntry(e);
                tar.write(data);
                tar.closeArchiveEntry();
                expected.put(file, TestData.sha256(data));
            }
            if (badLastEntry) {
                TarArchiveEntry link = new TarArchiveEntry("tree/last-link", TarArchiveEntry.LF_LINK);
                link.setLinkName("tree/no-such-file");
                tar.putArchiveEntry(link);
                tar.closeArchiveEntry();
            }
        }
        return p;
    }

    /** The command line's fat jar in a JVM with a {@value #HEAP} heap; standard input from {@code stdin} if given. */
    private static Process cli(Path stdin, Path output, String... args) throws IOException {
        return CliRunner.start(HEAP, stdin, output, args);
    }

    private static int await(Process p, Path output) throws Exception {
        return CliRunner.await(p, output, 180);
    }

    private Map<String, String> extracted(Path root) throws IOException {
        Map<String, String> found = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                found.put(root.getParent().relativize(f).toString(), TestData.sha256(Files.readAllBytes(f)));
            }
        }
        return found;
    }

    @Test
    void anArchiveOf5000EntriesLargerThanTheClientHeapCommitsWithEveryChecksumAndABadLastEntryLeavesNothing()
            throws Exception {
        Path good = archive("good.tar", 5000, BIG_MEMBER, false, false);
        assertThat(Files.size(good)).isGreaterThan(40L * 1024 * 1024);
        Path output = tmp.resolve("good.txt");

        int status = await(cli(null, output, "untar", "--no-progress", "--atomic", good.toString(),
                url + "atomic-good"), output);

        assertThat(status).as(Files.readString(output)).isZero();
        assertThat(extracted(server.exportDir().resolve("atomic-good/tree"))).isEqualTo(expected);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(
                server.exportDir().resolve("atomic-good/tree/d1/s1/f1.c")))).isEqualTo("rwxr-xr-x");

        Path bad = archive("bad.tar", 5000, BIG_MEMBER, false, true);
        Path badOutput = tmp.resolve("bad.txt");
        int badStatus = await(cli(null, badOutput, "untar", "--no-progress", "--atomic", bad.toString(),
                url + "atomic-bad"), badOutput);

        String err = Files.readString(badOutput);
        assertThat(badStatus).as(err).isEqualTo(1);
        assertThat(err).contains("last-link").contains("transaction rolled back, nothing changed");
        assertThat(server.exportDir().resolve("atomic-bad")).doesNotExist();
    }

    @Test
    void aGzipArchiveOnStandardInputLargerThanTheClientHeapCommitsWithEveryChecksum() throws Exception {
        Path gz = archive("stdin.tar.gz", 300, 40 * 1024 * 1024, true, false);
        Path output = tmp.resolve("stdin.txt");

        int status = await(cli(gz, output, "untar", "--no-progress", "--atomic", "-", url + "atomic-stdin"), output);

        assertThat(status).as(Files.readString(output)).isZero();
        assertThat(extracted(server.exportDir().resolve("atomic-stdin/tree"))).isEqualTo(expected);
    }
}
