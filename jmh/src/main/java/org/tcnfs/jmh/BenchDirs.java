package org.tcnfs.jmh;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Scratch directories for benchmarks, on the file system {@value #PROPERTY} names. */
final class BenchDirs {
    /** System property naming the parent directory of benchmark scratch directories. */
    static final String PROPERTY = "tcnfs.bench.dir";

    private BenchDirs() {
    }

    static Path create(String prefix) throws IOException {
        Path parent = Path.of(System.getProperty(PROPERTY, System.getProperty("java.io.tmpdir")));
        Files.createDirectories(parent);
        return Files.createTempDirectory(parent, prefix);
    }

    static void delete(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
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
}
