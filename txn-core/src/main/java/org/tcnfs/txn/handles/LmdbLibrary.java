package org.tcnfs.txn.handles;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where lmdbjava puts LMDB's native library: in the state directory, where a start deletes what an earlier one left,
 * instead of a new file in {@code java.io.tmpdir} per start.
 *
 * <p>lmdbjava extracts the library it bundles for this platform into a new temporary file each time a JVM first
 * opens an environment and deletes it only at a clean exit. A server killed (kill -9, a crash, a power cut) leaves
 * 350 KiB behind per start, without bound: a crash loop fills the temporary file system. So before the first
 * environment of the JVM opens, lmdbjava is told to extract into {@code <state>/native/} ({@value #EXTRACT_DIR_PROPERTY}),
 * and the copies earlier starts left there are deleted: one server owns its state directory, so at most one copy is
 * ever in use there. lmdbjava still chooses the library (glibc or musl, the architecture).
 *
 * <p>Nothing is done when lmdbjava was told where to extract or what to load already ({@value #EXTRACT_DIR_PROPERTY},
 * {@value #NATIVE_LIB_PROPERTY}: a system LMDB). lmdbjava reads these properties once per JVM, so only the first
 * table a JVM opens chooses; an application that opened LMDB before keeps its own choice.
 */
final class LmdbLibrary {
    /** lmdbjava's property naming the directory it extracts its bundled library into. */
    static final String EXTRACT_DIR_PROPERTY = "lmdbjava.extract.dir";
    /** lmdbjava's property naming a native library to load instead of its own. */
    static final String NATIVE_LIB_PROPERTY = "lmdbjava.native.lib";
    /** The prefix of the files lmdbjava extracts. */
    static final String EXTRACTED_PREFIX = "lmdbjava-native-library-";

    private static final Logger LOG = LoggerFactory.getLogger(LmdbLibrary.class);

    private LmdbLibrary() {
    }

    /**
     * Has lmdbjava extract into {@code <stateDirectory>/native/} and deletes the copies left there, unless the JVM's
     * choice is made already. A failure is logged and leaves lmdbjava's default.
     */
    static synchronized void extractInto(Path stateDirectory) {
        if (System.getProperty(EXTRACT_DIR_PROPERTY) != null || System.getProperty(NATIVE_LIB_PROPERTY) != null) {
            return;
        }
        Path directory = stateDirectory.resolve("native");
        try {
            Files.createDirectories(directory);
            int deleted = deleteLeftCopies(directory);
            if (deleted > 0) {
                LOG.info("deleted {} copies of LMDB's native library that earlier starts left in {}", deleted,
                        directory);
            }
            System.setProperty(EXTRACT_DIR_PROPERTY, directory.toAbsolutePath().toString());
        } catch (IOException e) {
            LOG.warn("cannot extract LMDB's native library into {} ({}): lmdbjava extracts it into {}, and a killed"
                    + " server leaves it there", directory, e.toString(), System.getProperty("java.io.tmpdir"));
        }
    }

    /** Deletes the files lmdbjava extracted into {@code directory}; how many. */
    static int deleteLeftCopies(Path directory) throws IOException {
        int deleted = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, EXTRACTED_PREFIX + "*")) {
            for (Path file : files) {
                if (Files.deleteIfExists(file)) {
                    deleted++;
                }
            }
        }
        return deleted;
    }
}
