package org.tcnfs.client.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.client.vector.TxnItem;
import org.tcnfs.client.vector.VSymlink;
import org.tcnfs.client.vector.VWriteFrom;

/** {@link TarPlan#index}, {@link TarPlan#check(Path)} and {@link ArchiveMembers}: an archive planned from its headers. */
class ArchiveIndexTest {
    @TempDir
    Path dir;

    private static Map<String, byte[]> files() {
        Random r = new Random(7);
        Map<String, byte[]> m = new LinkedHashMap<>();
        for (int size : new int[] {0, 1, 511, 512, 513, 70_000, 300_000}) {
            byte[] b = new byte[size];
            r.nextBytes(b);
            m.put("top/d" + (size % 3) + "/f" + size + "-" + "n".repeat(size % 7 == 0 ? 120 : 3), b);
        }
        return m;
    }

    private Path tar(String name, boolean gzip, Map<String, byte[]> files) throws IOException {
        Path p = dir.resolve(name);
        try (OutputStream raw = Files.newOutputStream(p);
                OutputStream out = gzip ? new GzipCompressorOutputStream(raw) : raw;
                TarArchiveOutputStream t = new TarArchiveOutputStream(out)) {
            t.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                TarArchiveEntry e = new TarArchiveEntry(f.getKey());
                e.setSize(f.getValue().length);
                e.setMode(0640);
                t.putArchiveEntry(e);
                t.write(f.getValue());
                t.closeArchiveEntry();
            }
            TarArchiveEntry link = new TarArchiveEntry("top/link", TarArchiveEntry.LF_SYMLINK);
            link.setLinkName("d0");
            t.putArchiveEntry(link);
            t.closeArchiveEntry();
        }
        return p;
    }

    private static void assertMembersAreTheFiles(TarPlan plan, ArchiveMembers members, Map<String, byte[]> files)
            throws IOException {
        List<TxnItem> items = plan.items();
        assertThat(items).hasSize(files.size() + 1);
        int i = 0;
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            VWriteFrom w = (VWriteFrom) items.get(i++);
            assertThat(w.path()).isEqualTo("into/" + f.getKey());
            assertThat(w.mode()).isEqualTo(0640);
            assertThat(w.length()).isEqualTo(f.getValue().length);
            assertThat(members.read(w.offset(), (int) w.length())).as(f.getKey()).isEqualTo(f.getValue());
        }
        assertThat(items.get(i)).isEqualTo(new VSymlink("into/top/link", "d0"));
        assertThat(plan.directories()).containsExactly("into", "into/top", "into/top/d0", "into/top/d1",
                "into/top/d2");
    }

    @Test
    void anUncompressedArchiveIsPlannedFromItsHeadersAndItsMembersReadAtTheirOffsets() throws IOException {
        Map<String, byte[]> files = files();
        Path archive = tar("a.tar", false, files);
        try (ArchiveMembers members = ArchiveMembers.open(archive)) {
            assertThat(members.compressed()).isFalse();
            assertMembersAreTheFiles(TarPlan.index(archive, "into", members), members, files);
        }
    }

    @Test
    void aGzipArchiveIsPlannedAndItsMembersDecompressedInOrderAndAgainFromTheStartWhenAskedForAnEarlierOne()
            throws IOException {
        Map<String, byte[]> files = files();
        Path archive = tar("a.tar.gz", true, files);
        try (ArchiveMembers members = ArchiveMembers.open(archive)) {
            assertThat(members.compressed()).isTrue();
            TarPlan plan = TarPlan.index(archive, "into", members);
            assertMembersAreTheFiles(plan, members, files);
            assertThat(members.reopened()).isZero();
            VWriteFrom last = (VWriteFrom) plan.items().get(files.size() - 1);
            byte[] again = members.read(last.offset(), (int) last.length());
            assertThat(members.reopened()).as("the same range again is kept").isZero();
            assertThat(again).isEqualTo(files.get(last.path().substring("into/".length())));

            assertMembersAreTheFiles(plan, members, files);
            assertThat(members.reopened()).as("a transaction begun again reads from the start").isEqualTo(1);
        }
    }

    @Test
    void anArchiveCutInsideAMemberIsTruncatedForIndexAndCheckWithoutAnythingPlanned() throws IOException {
        Map<String, byte[]> files = files();
        for (boolean gzip : new boolean[] {false, true}) {
            Path whole = tar(gzip ? "w.tar.gz" : "w.tar", gzip, files);
            byte[] bytes = Files.readAllBytes(whole);
            Path cut = dir.resolve(gzip ? "cut.tar.gz" : "cut.tar");
            Files.write(cut, Arrays.copyOf(bytes, bytes.length * 2 / 3));
            try (ArchiveMembers members = ArchiveMembers.open(cut)) {
                assertThatThrownBy(() -> TarPlan.index(cut, "into", members)).as("gzip " + gzip)
                        .hasMessageStartingWith("truncated archive");
            }
            assertThatThrownBy(() -> TarPlan.check(cut)).as("gzip " + gzip).hasMessageStartingWith("truncated archive");
            TarPlan.check(whole);
        }
    }

    @Test
    void checkOfAnUncompressedArchiveReadsItsHeadersNotItsData() throws IOException {
        Path archive = tar("big.tar", false, Map.of("big", new byte[16 * 1024 * 1024]));
        TarPlan.check(archive); // classes loaded, nothing measured
        long before = bytesReadByThisProcess();
        TarPlan.check(archive);
        long read = bytesReadByThisProcess() - before;
        assertThat(read).as("bytes read by check of a 16 MiB archive").isLessThan(1024 * 1024);
    }

    /** {@code rchar} of /proc/self/io: bytes this process read through read(2) and its kin. */
    private static long bytesReadByThisProcess() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
            if (line.startsWith("rchar:")) {
                return Long.parseLong(line.substring(6).trim());
            }
        }
        throw new IllegalStateException("no rchar in /proc/self/io");
    }

    @Test
    void textThatIsNotATarIsRefusedAsNotATarArchive() throws IOException {
        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "hello, this is not a tar archive\n".repeat(40));
        try (ArchiveMembers members = ArchiveMembers.open(text)) {
            assertThatThrownBy(() -> TarPlan.index(text, "t", members)).hasMessage("not a tar archive");
        }
    }

    @Test
    void namesLeavingTheTargetAreRefused() throws IOException {
        Path evil = tar("evil.tar", false, Map.of("../evil", new byte[1]));
        assertThatThrownBy(() -> TarPlan.check(evil)).hasMessageContaining("../evil");
    }
}
