package org.tcnfs.server.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    private static boolean kernelHasOpenat2() {
        String[] version = System.getProperty("os.version").split("[.-]");
        int major = Integer.parseInt(version[0]);
        int minor = Integer.parseInt(version[1]);
        String arch = System.getProperty("os.arch");
        return (arch.equals("amd64") || arch.equals("aarch64")) && (major > 5 || major == 5 && minor >= 6);
    }

    private void assertBothSay(Path directory, boolean inside) {
        assertThat(posix.isDirectoryWithoutSymlinks(directory)).as("openat2 on %s", directory).isEqualTo(inside);
        assertThat(Posix.walkedWithoutSymlinks(directory)).as("realpath on %s", directory).isEqualTo(inside);
    }
}
