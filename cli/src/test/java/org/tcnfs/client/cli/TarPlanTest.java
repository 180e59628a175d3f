package org.tcnfs.client.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.client.vector.LocalData;
import org.tcnfs.client.vector.VLink;
import org.tcnfs.client.vector.VSymlink;
import org.tcnfs.client.vector.VWriteFrom;

/** {@link TarPlan#index} and {@link TarPlan#check(Path)} on archive files, as {@code untar} calls them. */
class TarPlanTest {
    /** Planning reads headers only: the members' data is never asked for. */
    private static final LocalData UNREAD = (position, length) -> {
        throw new IOException("no member is read while planning");
    };

    @TempDir
    Path dir;

    /** Plans {@code archive}, written to a file, for extraction under {@code target}. */
    private TarPlan index(byte[] archive, String target) throws IOException {
        return TarPlan.index(file(archive), target, UNREAD);
    }

    private void check(byte[] archive) throws IOException {
        TarPlan.check(file(archive));
    }

    private Path file(byte[] archive) throws IOException {
        return Files.write(Files.createTempFile(dir, "archive", ".tar"), archive);
    }

    private static byte[] tar(boolean gzip, String... fileNames) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        OutputStream out = gzip ? new GzipCompressorOutputStream(bytes) : bytes;
        try (TarArchiveOutputStream t = new TarArchiveOutputStream(out)) {
            for (String name : fileNames) {
                TarArchiveEntry e = new TarArchiveEntry(name);
                e.setSize(1);
                e.setMode(0600);
                t.putArchiveEntry(e);
                t.write('x');
                t.closeArchiveEntry();
            }
            TarArchiveEntry link = new TarArchiveEntry("a/link", TarArchiveEntry.LF_SYMLINK);
            link.setLinkName("f");
            t.putArchiveEntry(link);
            t.closeArchiveEntry();
            TarArchiveEntry hard = new TarArchiveEntry("a/hard", TarArchiveEntry.LF_LINK);
            hard.setLinkName(fileNames[0]);
            t.putArchiveEntry(hard);
            t.closeArchiveEntry();
        }
        return bytes.toByteArray();
    }

    @Test
    void gzipIsDetectedAndParentsAreListedParentsFirst() throws IOException {
        TarPlan plan = index(tar(true, "a/b/c/f", "a/g"), "into/here");

        assertThat(plan.directories()).containsExactly("into", "into/here", "into/here/a", "into/here/a/b",
                "into/here/a/b/c");
        assertThat(plan.items()).hasSize(4);
        VWriteFrom f = (VWriteFrom) plan.items().get(0);
        assertThat(f.path()).isEqualTo("into/here/a/b/c/f");
        assertThat(f.mode()).isEqualTo(0600);
        assertThat(f.length()).isEqualTo(1);
        assertThat(plan.items().get(2)).isEqualTo(new VSymlink("into/here/a/link", "f"));
        assertThat(plan.items().get(3)).isEqualTo(new VLink("into/here/a/b/c/f", "into/here/a/hard"));
        assertThat(plan.bytes()).isEqualTo(2);
    }

    @Test
    void plainTarReadsToo() throws IOException {
        assertThat(index(tar(false, "f"), "").items()).hasSize(3);
    }

    @Test
    void namesLeavingTheTargetAreRefused() throws IOException {
        byte[] evil = tar(false, "../evil");
        assertThatThrownBy(() -> index(evil, "t")).isInstanceOf(IOException.class).hasMessageContaining("unsafe name");
        assertThatThrownBy(() -> check(evil)).isInstanceOf(IOException.class).hasMessageContaining("unsafe name");
    }

    @Test
    void aFileThatIsNotATarIsRefusedAsNotATarArchive() {
        byte[] text = "hello, this is not a tar archive\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] block = new byte[2048];
        new java.util.Random(7).nextBytes(block);

        assertThatThrownBy(() -> index(text, "t"))
                .isInstanceOf(IOException.class).hasMessage("not a tar archive");
        assertThatThrownBy(() -> index(block, "t"))
                .isInstanceOf(IOException.class).hasMessage("not a tar archive");
    }

    @Test
    void aCutArchiveIsATruncatedArchive() throws IOException {
        byte[] whole = tar(true, "a/f", "a/g");
        byte[] gz = java.util.Arrays.copyOf(whole, whole.length / 2);
        byte[] plain = java.util.Arrays.copyOf(tar(false, "a/f", "a/g"), 700);

        assertThatThrownBy(() -> index(gz, "t"))
                .isInstanceOf(IOException.class).hasMessageStartingWith("truncated archive");
        assertThatThrownBy(() -> index(plain, "t"))
                .isInstanceOf(IOException.class).hasMessageStartingWith("truncated archive");
    }

    @Test
    void deviceNodesAndFifosAreRefusedByName() throws IOException {
        for (byte kind : new byte[] {TarArchiveEntry.LF_CHR, TarArchiveEntry.LF_BLK, TarArchiveEntry.LF_FIFO}) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (TarArchiveOutputStream t = new TarArchiveOutputStream(bytes)) {
                t.putArchiveEntry(new TarArchiveEntry("dev/node", kind));
                t.closeArchiveEntry();
            }
            String what = kind == TarArchiveEntry.LF_FIFO ? "FIFO"
                    : kind == TarArchiveEntry.LF_BLK ? "block device" : "character device";

            assertThatThrownBy(() -> index(bytes.toByteArray(), "t"))
                    .isInstanceOf(IOException.class)
                    .hasMessage("dev/node is a " + what + ", which untar cannot create (only files, directories and links)");
        }
    }

    @Test
    void checkPassesAWholeArchiveAndRefusesWhatIndexRefusesWithTheSameMessages() throws IOException {
        byte[] big = new byte[10_000];
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream t = new TarArchiveOutputStream(bytes)) {
            TarArchiveEntry e = new TarArchiveEntry("big");
            e.setSize(big.length);
            t.putArchiveEntry(e);
            t.write(big);
            t.closeArchiveEntry();
        }
        byte[] cut = java.util.Arrays.copyOf(bytes.toByteArray(), 3000);
        byte[] text = "hello, this is not a tar archive\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);

        check(tar(true, "a/f", "a/g"));
        check(bytes.toByteArray());
        assertThatThrownBy(() -> check(cut))
                .isInstanceOf(IOException.class).hasMessage("truncated archive (in big)");
        assertThatThrownBy(() -> check(text))
                .isInstanceOf(IOException.class).hasMessage("not a tar archive");
        assertThatThrownBy(() -> check(tar(false, "../evil")))
                .isInstanceOf(IOException.class).hasMessageContaining("unsafe name");
    }
}
