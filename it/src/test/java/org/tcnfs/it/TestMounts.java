package org.tcnfs.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

/**
 * The test file systems of {@code scripts/mount-test-fs.sh} (XFS with reflink, ext4 without), mounted on
 * demand; a test that needs one is skipped, with the script's reason, where mounting is impossible here.
 */
final class TestMounts {
    private TestMounts() {
    }

    /**
     * A fresh directory on the mount {@code variable} names ({@code TCNFS_XFS_DIR}, {@code TCNFS_EXT4_DIR}),
     * after running the script's {@code up}.
     */
    static Path directoryOn(String variable, String fsType) throws IOException {
        Path root = Paths.get(System.getProperty("tcnfs.repo.root", "..")).toAbsolutePath().normalize();
        Path script = root.resolve("scripts").resolve("mount-test-fs.sh");
        assumeTrue(Files.isExecutable(script), "no " + script);
        Process p = new ProcessBuilder("bash", script.toString(), "up").redirectErrorStream(true).start();
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("mount-test-fs.sh up did not finish");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        assumeTrue(p.exitValue() != 77, "test file systems cannot be mounted here: " + out);
        if (p.exitValue() != 0) {
            throw new IllegalStateException("mount-test-fs.sh up failed (" + p.exitValue() + "): " + out);
        }
        for (String line : out.split("\n")) {
            if (line.startsWith(variable + "=")) {
                Path mount = Paths.get(line.substring(variable.length() + 1).trim());
                assumeTrue(fsType.equals(Files.getFileStore(mount).type()), mount + " is not " + fsType);
                Path work = mount.resolve("it-work");
                Files.createDirectories(work);
                return work;
            }
        }
        throw new IllegalStateException("mount-test-fs.sh printed no " + variable + ": " + out);
    }
}
