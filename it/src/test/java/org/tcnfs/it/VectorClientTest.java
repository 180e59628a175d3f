package org.tcnfs.it;

import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.tcnfs.client.vector.VnfsClient;

/**
 * Base of the shared-server integration tests that drive the vectorized client: each test gets its own
 * directory ({@link PerTestDirectoryTest}) and a fresh {@link #nfs} connected to the server, closed after it.
 */
abstract class VectorClientTest extends PerTestDirectoryTest {
    /** The test's client, connected with the default limits. */
    VnfsClient nfs;

    @BeforeEach
    void connect() throws IOException {
        nfs = VnfsClient.builder().host(server.host()).port(server.port()).connect();
    }

    @AfterEach
    void disconnect() throws IOException {
        if (nfs != null) {
            nfs.close();
        }
    }
}
