package org.tcnfs.txn.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.txn.backup.Reflink.CloneResult;
import org.tcnfs.txn.backup.TestFileSystems.Kind;

/** The native binding against real file systems: what FICLONERANGE really returns where. */
class ReflinkTest {
    private final Reflink reflink = Reflink.load();
    private Path xfs;
    private Path ext4;
    private Path tmpfs;

    @AfterEach
    void cleanUp() throws IOException {
        TestFileSystems.deleteTree(xfs);
        TestFileSystems.deleteTree(ext4);
        TestFileSystems.deleteTree(tmpfs);
    }

    @Test
    void ficlonerangeReturnsZeroOnReflinkXfsAndSharesTheBytes() throws IOException {
        xfs = TestFileSystems.freshDirectory(Kind.XFS);
        byte[] data = randomBytes(3 * 4096, 1);
        Path source = Files.write(xfs.resolve("source"), data);
        Path target = Files.createFile(xfs.resolve("target"));

        CloneResult result = reflink.cloneRange(source, 4096, 8192, target, 4096);

        assertThat(result.errno()).isZero();
        assertThat(result.succeeded()).isTrue();
        assertThat(result.errnoName()).isEqualTo("OK");
        byte[] cloned = Files.readAllBytes(target);
        assertThat(cloned).hasSize(3 * 4096);
        assertThat(Arrays.copyOfRange(cloned, 0, 4096)).containsOnly(0);
        assertThat(Arrays.copyOfRange(cloned, 4096, 3 * 4096)).isEqualTo(Arrays.copyOfRange(data, 4096, 3 * 4096));
    }

    @Test
    void ficlonerangeMayEndUnalignedAtTheSourcesEndOfFile() throws IOException {
        xfs = TestFileSystems.freshDirectory(Kind.XFS);
        byte[] data = randomBytes(4096 + 1000, 2);
        Path source = Files.write(xfs.resolve("source"), data);
        Path target = Files.createFile(xfs.resolve("target"));

        assertThat(reflink.cloneRange(source, 0, data.length, target, 0).errno()).isZero();
        assertThat(Files.readAllBytes(target)).isEqualTo(data);
    }

    @Test
    void unalignedFicloneRangeOnXfsIsEinvalAndCountsAsRefused() throws IOException {
        xfs = TestFileSystems.freshDirectory(Kind.XFS);
        Path source = Files.write(xfs.resolve("source"), randomBytes(3 * 4096, 3));
        Path target = Files.createFile(xfs.resolve("target"));

        CloneResult result = reflink.cloneRange(source, 100, 4096, target, 100);

        assertThat(result.errnoName()).isEqualTo("EINVAL");
        assertThat(result.refused()).isTrue();
        assertThat(result.noReflink()).isFalse();
        assertThat(Files.size(target)).isZero();
    }

    @Test
    void ficlonerangeIsEopnotsuppOnExt4() throws IOException {
        ext4 = TestFileSystems.freshDirectory(Kind.EXT4);
        Path source = Files.write(ext4.resolve("source"), randomBytes(8192, 4));
        Path target = Files.createFile(ext4.resolve("target"));

        CloneResult result = reflink.cloneRange(source, 0, 8192, target, 0);

        assertThat(result.errno()).isEqualTo(95);
        assertThat(result.errnoName()).isEqualTo("EOPNOTSUPP");
        assertThat(result.refused()).isTrue();
        assertThat(result.noReflink()).isTrue();
        assertThat(Files.size(target)).isZero();
    }

    @Test
    void ficlonerangeIsEopnotsuppOnTmpfs() throws IOException {
        tmpfs = TestFileSystems.freshDirectory(Kind.TMPFS);
        Path source = Files.write(tmpfs.resolve("source"), randomBytes(8192, 5));
        Path target = Files.createFile(tmpfs.resolve("target"));

        CloneResult result = reflink.cloneRange(source, 0, 8192, target, 0);

        assertThat(result.errnoName()).isEqualTo("EOPNOTSUPP");
        assertThat(result.refused()).isTrue();
    }

    @Test
    void ficlonerangeAcrossFileSystemsIsExdev() throws IOException {
        xfs = TestFileSystems.freshDirectory(Kind.XFS);
        ext4 = TestFileSystems.freshDirectory(Kind.EXT4);
        Path source = Files.write(xfs.resolve("source"), randomBytes(8192, 6));
        Path target = Files.createFile(ext4.resolve("target"));

        CloneResult result = reflink.cloneRange(source, 0, 8192, target, 0);

        assertThat(result.errnoName()).isEqualTo("EXDEV");
        assertThat(result.refused()).isTrue();
        assertThat(result.noReflink()).isFalse();
    }

    @Test
    void cloneOfMissingSourceIsNoSuchFile() throws IOException {
        xfs = TestFileSystems.freshDirectory(Kind.XFS);
        Path target = Files.createFile(xfs.resolve("target"));

        assertThatThrownBy(() -> reflink.cloneRange(xfs.resolve("missing"), 0, 4096, target, 0))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("ENOENT");
    }

    @Test
    void cloneDoesNotFollowSymbolicLinks() throws IOException {
        xfs = TestFileSystems.freshDirectory(Kind.XFS);
        Path source = Files.write(xfs.resolve("source"), randomBytes(4096, 7));
        Path link = Files.createSymbolicLink(xfs.resolve("link"), source);
        Path target = Files.createFile(xfs.resolve("target"));

        assertThatThrownBy(() -> reflink.cloneRange(link, 0, 4096, target, 0))
                .isInstanceOf(FileSystemException.class)
                .hasMessageContaining("ELOOP");
    }

    @Test
    void namesOutsideAsciiReachLibc() throws IOException {
        xfs = TestFileSystems.freshDirectory(Kind.XFS);
        byte[] data = randomBytes(4096, 8);
        Path source = Files.write(xfs.resolve("grüße-文件"), data);
        Path target = Files.createFile(xfs.resolve("ziel-目标"));

        assertThat(reflink.cloneRange(source, 0, 4096, target, 0).errno()).isZero();
        assertThat(Files.readAllBytes(target)).isEqualTo(data);
    }

    @Test
    void fsyncAcceptsFilesAndDirectoriesAndRefusesWhatIsMissing() throws IOException {
        ext4 = TestFileSystems.freshDirectory(Kind.EXT4);
        Path file = Files.write(ext4.resolve("file"), randomBytes(100, 9));

        reflink.fsync(file);
        reflink.fsync(ext4);
        assertThatThrownBy(() -> reflink.fsync(ext4.resolve("missing"))).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void renameNoReplaceRenamesButNeverOverwrites() throws IOException {
        tmpfs = TestFileSystems.freshDirectory(Kind.TMPFS);
        Path a = Files.writeString(tmpfs.resolve("a"), "A");
        Path b = Files.writeString(tmpfs.resolve("b"), "B");

        assertThatThrownBy(() -> reflink.renameNoReplace(a, b)).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readString(a)).isEqualTo("A");
        assertThat(Files.readString(b)).isEqualTo("B");

        assertThat(reflink.renameNoReplace(a, tmpfs.resolve("c"))).isTrue();
        assertThat(a).doesNotExist();
        assertThat(Files.readString(tmpfs.resolve("c"))).isEqualTo("A");
        assertThatThrownBy(() -> reflink.renameNoReplace(a, tmpfs.resolve("d")))
                .isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void renameAcrossFileSystemsIsAtomicMoveNotSupported() throws IOException {
        xfs = TestFileSystems.freshDirectory(Kind.XFS);
        ext4 = TestFileSystems.freshDirectory(Kind.EXT4);
        Path a = Files.writeString(xfs.resolve("a"), "A");

        assertThatThrownBy(() -> reflink.renameNoReplace(a, ext4.resolve("a")))
                .isInstanceOf(AtomicMoveNotSupportedException.class);
        assertThat(a).exists();
    }

    static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
