package org.tcnfs.it.hostile;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.it.ServerProcess;

/**
 * The set-up shared by the session and client attack tests: the server a test starts, and the connections it
 * opens with {@link #connect()}; all closed after each test.
 */
abstract class SessionAttackTest {
    ServerProcess server;
    private final List<NfsConnection> connections = new ArrayList<>();

    @AfterEach
    void stopServer() throws IOException {
        SessionAttacks.closeAll(connections);
        if (server != null) {
            server.close();
        }
    }

    /** A new connection to the server, closed after the test. */
    NfsConnection connect() throws IOException {
        NfsConnection c = server.connect();
        connections.add(c);
        return c;
    }
}
