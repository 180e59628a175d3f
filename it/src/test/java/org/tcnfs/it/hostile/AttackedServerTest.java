package org.tcnfs.it.hostile;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.tcnfs.it.ServerProcess;

/**
 * The set-up shared by the network attack tests: before each test a small-heap server ({@link Hostile#start})
 * and a {@link Hostile.NormalClient} mounted before the attack; both closed after it.
 */
abstract class AttackedServerTest {
    ServerProcess server;
    Hostile.NormalClient normal;

    /** Server options beyond the small heap; none unless a test class needs some. */
    String[] serverOptions() {
        return new String[0];
    }

    /** Writes the files a test class needs into the export before the normal client mounts it; none by default. */
    void prepareExport(Path exportDir) throws IOException {
    }

    @BeforeEach
    void start() throws IOException {
        server = Hostile.start(serverOptions());
        prepareExport(server.exportDir());
        normal = Hostile.NormalClient.open(server);
    }

    @AfterEach
    void stop() throws IOException {
        normal.close();
        server.close();
    }
}
