package org.tcnfs.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;

/**
 * Base of the shared-server integration tests that give each test its own directory in the export, named after
 * the test method: its {@link #path} below the export root, its place on the server's disk {@link #remote} and
 * its {@code nfs://} URL {@link #url}. Subclasses' own {@code @BeforeEach} methods run after it is made.
 */
abstract class PerTestDirectoryTest extends SharedServerTest {
    /** The directory's path below the export root: the test method's name. */
    String path;
    /** The test's directory on the server's disk. */
    Path remote;
    /** {@code nfs://127.0.0.1:PORT/NAME}. */
    String url;

    @BeforeEach
    void makeDirectory(TestInfo test) throws IOException {
        path = test.getTestMethod().orElseThrow().getName();
        remote = server.exportDir().resolve(path);
        Files.createDirectories(remote);
        url = "nfs://127.0.0.1:" + server.port() + "/" + path;
    }
}
