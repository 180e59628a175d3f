package org.tcnfs.txn.backup;

import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real file systems the backup tests run on: a reflink XFS loop mount, an ext4 loop mount, a tmpfs.
 *
 * <p>Found through system properties or environment variables {@code TCNFS_XFS_DIR}, {@code TCNFS_EXT4_DIR},
 * {@code TCNFS_TMPFS_DIR}. When one is not given, {@code scripts/mount-test-fs.sh} is run: {@code up} as root
 * (it mounts what is missing, reusing images and loop devices), {@code status} otherwise (it reports what a
 * root user mounted). When the script says this machine cannot mount (exit 77: not root, no loop devices,
 * mounting not permitted), tests are skipped with its reason; any other failure fails them.
 */
final class TestFileSystems {
    private static final int SKIP = 77;

    /** The kinds of file system, with the type name the kernel reports and the variable that names it. */
    enum Kind {
        XFS("xfs", "TCNFS_XFS_DIR"),
        EXT4("ext4", "TCNFS_EXT4_DIR"),
        TMPFS("tmpfs", "TCNFS_TMPFS_DIR");

        final String type;
        final String variable;

        Kind(String type, String variable) {
            this.type = type;
            this.variable = variable;
        }

        /** Whether FICLONERANGE works on it. */
        boolean reflinks() {
            return this == XFS;
        }
    }

    private static Map<Kind, Path> mounts;
    private static String unavailable;

    private TestFileSystems() {
    }

    /** The mount point of {@code kind}; skips the test (with the reason) when this machine has none. */
    static synchronized Path mountPoint(Kind kind) {
        if (mounts == null && unavailable == null) {
            discover();
        }
        assumeTrue(unavailable == null, () -> "SKIPPED: no test file systems: " + unavailable);
        Path mount = mounts.get(kind);
        try {
            String type = Files.getFileStore(mount).type();
            if (!type.equals(kind.type)) {
                fail("%s (%s) is %s, not %s", mount, kind.variable, type, kind.type);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assumeTrue(Files.isWritable(mount), () -> "SKIPPED: " + mount + " (" + kind.variable + ") is not writable by "
                + "this user; 'sudo scripts/mount-test-fs.sh down' and 'up' again make the mount roots mode 1777");
        return mount;
    }

    /** A fresh directory on {@code kind}, for one test. */
    static Path freshDirectory(Kind kind) throws IOException {
        return Files.createTempDirectory(mountPoint(kind), "backup-test-");
    }

    /** The fresh directories of one test class's tests ({@link #freshDirectory}), deleted after each test. */
    static final class Directories {
        private final java.util.List<Path> made = new java.util.ArrayList<>();

        /** A fresh export-like directory on {@code kind}, deleted by {@link #deleteAll()}. */
        Path on(Kind kind) throws IOException {
            Path directory = freshDirectory(kind);
            made.add(directory);
            return directory;
        }

        void deleteAll() throws IOException {
            for (Path directory : made) {
                deleteTree(directory);
            }
            made.clear();
        }
    }

    /** Writes {@code bytes} into {@code file} at {@code offset}, all of them. */
    static void writeAt(Path file, long offset, byte[] bytes) throws IOException {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.WRITE)) {
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes);
            long at = offset;
            while (buffer.hasRemaining()) {
                at += ch.write(buffer, at);
            }
        }
    }

    /** Deletes a tree, never following symbolic links; harmless if it is gone. */
    static void deleteTree(Path root) throws IOException {
        if (root == null || !Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void discover() {
        Map<Kind, Path> found = new EnumMap<>(Kind.class);
        for (Kind kind : Kind.values()) {
            String value = System.getProperty(kind.variable, System.getenv(kind.variable));
            if (value != null && !value.isBlank()) {
                found.put(kind, Path.of(value));
            }
        }
        if (found.size() < Kind.values().length) {
            Map<Kind, Path> fromScript = runScript();
            if (fromScript == null) {
                return;
            }
            fromScript.forEach(found::putIfAbsent);
        }
        mounts = found;
    }

    /** The mounts the script reports, or null (and {@link #unavailable} set) when it says it cannot. */
    private static Map<Kind, Path> runScript() {
        Path script = findScript();
        if (script == null) {
            unavailable = "scripts/mount-test-fs.sh not found above " + Path.of("").toAbsolutePath()
                    + "; set TCNFS_XFS_DIR, TCNFS_EXT4_DIR and TCNFS_TMPFS_DIR";
            return null;
        }
        String command = isRoot() ? "up" : "status";
        try {
            Path output = Files.createTempFile("mount-test-fs", ".out");
            Path errors = Files.createTempFile("mount-test-fs", ".err");
            try {
                Process process = new ProcessBuilder("bash", script.toString(), command)
                        .redirectOutput(output.toFile())
                        .redirectError(errors.toFile())
                        .start();
                if (!process.waitFor(180, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    fail("%s %s did not finish in 180 s", script, command);
                }
                String stdout = Files.readString(output, StandardCharsets.UTF_8);
                String stderr = Files.readString(errors, StandardCharsets.UTF_8).strip();
                int status = process.exitValue();
                if (status == SKIP) {
                    unavailable = isRoot() ? stderr
                            : "not root and nothing mounted (" + stderr + "); run 'sudo " + script + "' or set "
                                    + "TCNFS_XFS_DIR, TCNFS_EXT4_DIR and TCNFS_TMPFS_DIR";
                    return null;
                }
                if (status != 0) {
                    fail("%s %s failed with status %d: %s", script, command, status, stderr);
                }
                Map<Kind, Path> reported = new EnumMap<>(Kind.class);
                for (String line : stdout.split("\n")) {
                    for (Kind kind : Kind.values()) {
                        if (line.startsWith(kind.variable + "=")) {
                            reported.put(kind, Path.of(line.substring(kind.variable.length() + 1).strip()));
                        }
                    }
                }
                if (reported.size() != Kind.values().length) {
                    fail("%s %s printed %s", script, command, stdout);
                }
                return reported;
            } finally {
                Files.deleteIfExists(output);
                Files.deleteIfExists(errors);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + script, e);
        }
    }

    private static Path findScript() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("scripts").resolve("mount-test-fs.sh");
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static boolean isRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }
}
