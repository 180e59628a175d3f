package org.tcnfs.server.fs;

import java.io.IOException;

/**
 * {@link LocalFileSystemSafetyTest} on the path for kernels without openat2: absolute paths, {@code lstat} and a
 * {@code realpath} walk per directory and compound instead of descriptors of the directories.
 */
class LocalFileSystemSafetyWithoutOpenat2Test extends LocalFileSystemSafetyTest {
    @Override
    LocalFileSystem openFileSystem() throws IOException {
        return LocalFileSystem.builder(EXPORT, export, table).posix(new Posix().withoutOpenat2()).build();
    }
}
