package org.tcnfs.server.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.vfs.TimeChange;

class PosixTest {
    @TempDir
    Path tmp;

    private final Posix posix = new Posix();

    @Test
    void onlyADirectoryReachedWithoutASymlinkIsInside() throws IOException {
        Path base = tmp.toRealPath();
        Path real = Files.createDirectories(base.resolve("a/b/c"));
        Path link = Files.createSymbolicLink(base.resolve("l"), base.resolve("a"));
        Path file = Files.writeString(base.resolve("a/f"), "x");
        Path linkToDir = Files.createSymbolicLink(base.resolve("a/ld"), real);

        assertBothSay(real, true);
        assertBothSay(base.resolve("a"), true);
        assertBothSay(link.resolve("b/c"), false);
        assertBothSay(link, false);
        assertBothSay(linkToDir, false);
        assertBothSay(file, false);
        assertBothSay(base.resolve("a/missing"), false);
        if (kernelHasOpenat2()) {
            assertThat(posix.usesOpenat2()).as("openat2 answered every call").isTrue();
        }
    }

    @Test
    void aLinkedCreateMakesTheFileAppearWithItsFinalModeAndNothingElse() throws IOException {
        Path dir = tmp.toRealPath();
        org.junit.jupiter.api.Assumptions.assumeTrue(posix.unnamedFilesWork(dir), "O_TMPFILE on " + dir);
        Path f = dir.resolve("f");

        PosixStat made = posix.createLinked(f, 0640, -1, -1);

        assertThat(made).as("the stat of the file made").isNotNull();
        assertThat(made.ino()).isEqualTo(posix.lstat(f).ino());
        assertThat(made.nlink()).as("read after the link").isEqualTo(1);
        assertThat(made.permissions()).isEqualTo(0640);
        assertThat(Files.isRegularFile(f)).isTrue();
        assertThat(Files.size(f)).isZero();
        assertThat(((Number) Files.getAttribute(f, "unix:mode")).intValue() & 07777).isEqualTo(0640);
        assertThat(((Number) Files.getAttribute(f, "unix:nlink")).intValue()).isEqualTo(1);
        try (var names = Files.list(dir)) {
            assertThat(names.map(p -> p.getFileName().toString())).containsExactly("f");
        }
    }

    @Test
    void aLinkedCreateOfATakenNameIsExistAndLeavesTheNameAlone() throws IOException {
        Path dir = tmp.toRealPath();
        org.junit.jupiter.api.Assumptions.assumeTrue(posix.unnamedFilesWork(dir), "O_TMPFILE on " + dir);
        Path f = Files.writeString(dir.resolve("f"), "kept");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> posix.createLinked(f, 0600, -1, -1))
                .isInstanceOf(org.tcnfs.nfs4.status.ExistException.class);

        assertThat(Files.readString(f)).isEqualTo("kept");
    }

    @Test
    void aLinkedCreateWithTimesGivesTheFileThoseTimesToTheNanosecond() throws IOException {
        Path dir = tmp.toRealPath();
        org.junit.jupiter.api.Assumptions.assumeTrue(posix.unnamedFilesWork(dir), "O_TMPFILE on " + dir);
        Path f = dir.resolve("f");
        Instant atime = Instant.ofEpochSecond(1_000_000_000L, 123_456_789);
        Instant mtime = Instant.ofEpochSecond(1_500_000_000L, 987_654_321);

        assertThat(posix.createLinked(f, 0600, -1, -1, TimeChange.at(atime), TimeChange.at(mtime))).isNotNull();

        assertThat(Files.getAttribute(f, "lastAccessTime", LinkOption.NOFOLLOW_LINKS))
                .isEqualTo(FileTime.from(atime));
        assertThat(Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS)).isEqualTo(FileTime.from(mtime));
    }

    @Test
    void settingOneTimeLeavesTheOtherAndAMissingPathIsNoEnt() throws IOException {
        Path f = Files.writeString(tmp.toRealPath().resolve("f"), "x");
        Instant mtime = Instant.ofEpochSecond(1_200_000_000L, 5);
        Instant atime = Instant.ofEpochSecond(1_100_000_000L, 7);
        posix.setTimes(f, TimeChange.at(atime), TimeChange.at(mtime));

        posix.setTimes(f, null, TimeChange.at(mtime.plusSeconds(1)));

        assertThat(Files.getAttribute(f, "lastAccessTime", LinkOption.NOFOLLOW_LINKS))
                .isEqualTo(FileTime.from(atime));
        assertThat(Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS))
                .isEqualTo(FileTime.from(mtime.plusSeconds(1)));
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> posix.setTimes(f.resolveSibling("missing"), TimeChange.serverTime(), null))
                .isInstanceOf(org.tcnfs.nfs4.status.NoEntException.class);
    }

    private static boolean kernelHasOpenat2() {
        String[] version = System.getProperty("os.version").split("[.-]");
        int major = Integer.parseInt(version[0]);
        int minor = Integer.parseInt(version[1]);
        String arch = System.getProperty("os.arch");
        return (arch.equals("amd64") || arch.equals("aarch64")) && (major > 5 || major == 5 && minor >= 6);
    }

    @Test
    void aDirectoryIsEmptyOnlyWithNoEntryButDotAndDotDotAndASymlinkToOneIsNotLookedInto() throws IOException {
        Path base = tmp.toRealPath();
        Path empty = Files.createDirectory(base.resolve("empty"));
        Path hidden = Files.createDirectory(base.resolve("hidden"));
        Files.writeString(hidden.resolve(".x"), "x");
        Path dots = Files.createDirectory(base.resolve("dots"));
        Files.createDirectory(dots.resolve("..."));
        Path longName = Files.createDirectory(base.resolve("long"));
        Files.writeString(longName.resolve("n".repeat(255)), "x");
        Path many = Files.createDirectory(base.resolve("many"));
        for (int i = 0; i < 200; i++) {
            Files.writeString(many.resolve("entry-" + i), "x");
        }
        Path link = Files.createSymbolicLink(base.resolve("link"), empty);

        assertThat(posix.isEmptyDirectory(empty)).isTrue();
        assertThat(posix.isEmptyDirectory(hidden)).isFalse();
        assertThat(posix.isEmptyDirectory(dots)).isFalse();
        assertThat(posix.isEmptyDirectory(longName)).isFalse();
        assertThat(posix.isEmptyDirectory(many)).isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> posix.isEmptyDirectory(link))
                .isInstanceOf(org.tcnfs.nfs4.status.NfsException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> posix.isEmptyDirectory(base.resolve("missing")))
                .isInstanceOf(org.tcnfs.nfs4.status.NoEntException.class);
    }

    private void assertBothSay(Path directory, boolean inside) {
        assertThat(posix.isDirectoryWithoutSymlinks(directory)).as("openat2 on %s", directory).isEqualTo(inside);
        assertThat(Posix.walkedWithoutSymlinks(directory)).as("realpath on %s", directory).isEqualTo(inside);
    }
}
