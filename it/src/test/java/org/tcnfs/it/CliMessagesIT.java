package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.it.CliRunner.jar;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.tcnfs.it.CliRunner.Run;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code tcnfs} command's messages for people (issue 17), through the real fat jar as a child process against
 * the real server: one line on standard error naming the path and the cause in plain words, the exit status the
 * README documents, no Java names, no stack trace.
 */
class CliMessagesIT extends PerTestDirectoryTest {
    @TempDir
    Path tmp;

    private static byte[] tarOf(String name, byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream t = new TarArchiveOutputStream(bytes)) {
            TarArchiveEntry e = new TarArchiveEntry(name);
            e.setSize(data.length);
            t.putArchiveEntry(e);
            t.write(data);
            t.closeArchiveEntry();
        }
        return bytes.toByteArray();
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(data);
        }
        return bytes.toByteArray();
    }

    @Test
    void withoutACommandItPrintsTheUsageAndExitsWithTheUsageStatus() throws Exception {
        Run r = jar(tmp);

        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("Usage: tcnfs");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void applyHelpShowsTheEscapesWithoutAWarning() throws Exception {
        Run r = jar(tmp, "apply", "--help");

        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("%20 escapes a", "%23 a '#'");
        assertThat(r.err()).as("no picocli WARN").isEmpty();
    }

    @Test
    void anUnresolvableHostExitsWithTheConnectionStatusNamingIt() throws Exception {
        Run r = jar(tmp, "ls", "nfs://no-such-host.invalid/");

        assertThat(r.status()).isEqualTo(3);
        assertThat(r.err()).isEqualTo("tcnfs: cannot resolve host no-such-host.invalid\n");
    }

    @Test
    void aRefusedConnectionNamesTheServer() throws Exception {
        Run r = jar(tmp, "ls", "nfs://127.0.0.1:1/");

        assertThat(r.status()).isEqualTo(3);
        assertThat(r.err()).isEqualTo("tcnfs: cannot connect to 127.0.0.1:1: connection refused\n");
    }

    @Test
    void aMissingLocalFileIsNamedWithThePlainCause() throws Exception {
        Run put = jar(tmp, "put", "no-such-file", url + "/f");
        Run untar = jar(tmp, "untar", "no-such.tgz", url);

        assertThat(put.status()).isEqualTo(6);
        assertThat(put.err()).isEqualTo("tcnfs: no-such-file: no such file or directory\n");
        assertThat(untar.status()).isEqualTo(6);
        assertThat(untar.err()).isEqualTo("tcnfs: untar: no-such.tgz: no such file or directory\n");
    }

    @Test
    void untarOfACutArchiveSaysTruncatedArchiveAndChangesNothing() throws Exception {
        byte[] whole = tarOf("big", TestData.randomBytes(10_000, 5));
        Files.write(tmp.resolve("trunc.tar"), Arrays.copyOf(whole, 3000));
        Files.write(tmp.resolve("trunc.tgz"), gzip(Arrays.copyOf(whole, 3000)));

        Run plain = jar(tmp, "untar", "trunc.tar", url);
        Run gz = jar(tmp, "untar", "trunc.tgz", url);

        assertThat(plain.status()).isEqualTo(6);
        assertThat(plain.err()).isEqualTo("tcnfs: untar: trunc.tar: truncated archive (in big)\n");
        assertThat(gz.status()).isEqualTo(6);
        assertThat(gz.err()).isEqualTo("tcnfs: untar: trunc.tgz: truncated archive (in big)\n");
        assertThat(remote).isEmptyDirectory();
    }

    @Test
    void untarOfAFileThatIsNotATarSaysSoAndExitsNonZero() throws Exception {
        Files.writeString(tmp.resolve("notes.txt"), "these are notes, not a tar archive\n");

        Run r = jar(tmp, "untar", "notes.txt", url);

        assertThat(r.status()).isEqualTo(6);
        assertThat(r.err()).isEqualTo("tcnfs: untar: notes.txt: not a tar archive\n");
        assertThat(remote).isEmptyDirectory();
    }

    @Test
    void untarRefusesADeviceNodeByNameInsteadOfWritingAnEmptyFile() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream t = new TarArchiveOutputStream(bytes)) {
            TarArchiveEntry file = new TarArchiveEntry("a.txt");
            file.setSize(3);
            t.putArchiveEntry(file);
            t.write("abc".getBytes(StandardCharsets.UTF_8));
            t.closeArchiveEntry();
            TarArchiveEntry dev = new TarArchiveEntry("dev/null", TarArchiveEntry.LF_CHR);
            dev.setDevMajor(1);
            dev.setDevMinor(3);
            t.putArchiveEntry(dev);
            t.closeArchiveEntry();
        }
        Files.write(tmp.resolve("dev.tar"), bytes.toByteArray());

        Run r = jar(tmp, "untar", "dev.tar", url);

        assertThat(r.status()).isEqualTo(6);
        assertThat(r.err()).isEqualTo("tcnfs: untar: dev.tar: dev/null is a character device, which untar cannot "
                + "create (only files, directories and links)\n");
        assertThat(remote).isEmptyDirectory();
    }

    @Test
    void aRefusedApplyNamesTheOperationThePathAndTheModeInOctal() throws Exception {
        Files.writeString(tmp.resolve("m"), "mkdir missing/alice 700   # the parent does not exist\n");

        Run r = jar(tmp, "apply", "m", url);

        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("tcnfs: apply mkdir /aRefusedApplyNamesTheOperationThePathAndTheModeInOctal"
                + "/missing/alice (mode 700): no such file or directory (NFS4ERR_NOENT); transaction rolled back, "
                + "nothing changed\n");
        assertThat(remote).isEmptyDirectory();
    }
}
