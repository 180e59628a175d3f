package org.tcnfs.it;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Base of the integration tests whose tests share one {@link ServerProcess}: started on fresh directories under
 * {@link #workDirectory()} before the class's first test, closed (its directories deleted) after the last.
 * Subclasses' own {@code @BeforeAll} methods run after the start.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SharedServerTest {
    /** The server every test of the class talks to. */
    ServerProcess server;

    /**
     * Where the server's export and state directories go: {@link ServerProcess#defaultWorkDirectory()} unless
     * overridden.
     */
    Path workDirectory() throws IOException {
        return ServerProcess.defaultWorkDirectory();
    }

    /** Options for the server's command line beyond {@link ServerProcess}'s own; none unless overridden. */
    String[] serverOptions() {
        return new String[0];
    }

    @BeforeAll
    void startServer() throws IOException {
        server = ServerProcess.startIn(workDirectory(), List.of(), serverOptions());
    }

    @AfterAll
    void stopServer() throws IOException {
        if (server != null) {
            server.close();
        }
    }
}
