package org.tcnfs.server.fs;

import java.io.IOException;

/** {@link LocalFileSystemTest} on the path for kernels without openat2 (absolute paths, no directory descriptors). */
class LocalFileSystemWithoutOpenat2Test extends LocalFileSystemTest {
    @Override
    LocalFileSystem openFileSystem() throws IOException {
        return LocalFileSystem.builder(EXPORT, export, table).posix(new Posix().withoutOpenat2()).build();
    }
}
