package org.tcnfs.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of the shared-server integration tests that also need local room for what they send (archives, big files,
 * the command line's output): {@link #tmp}, a fresh directory next to the server's, deleted after the class, and
 * {@link #url}, the server's export root as an {@code nfs://} URL.
 */
abstract class ScratchServerTest extends SharedServerTest {
    /** Local files of the test class, outside the export. */
    Path tmp;
    /** {@code nfs://127.0.0.1:PORT/}. */
    String url;

    @BeforeAll
    void makeScratch() throws IOException {
        tmp = Files.createTempDirectory(ServerProcess.defaultWorkDirectory(), getClass().getSimpleName() + "-");
        url = "nfs://127.0.0.1:" + server.port() + "/";
    }

    @AfterAll
    void deleteScratch() throws IOException {
        if (tmp != null) {
            ServerProcess.deleteTree(tmp);
        }
    }
}
