package org.tcnfs.it;

import java.io.IOException;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;

/**
 * One connection to a {@link ServerProcess} with one NFSv4.1 session on it and {@link NfsOps} over that session:
 * what most integration tests open before each test. {@link #close()} ends the session, then the connection.
 *
 * @param connection the RPC connection, for raw calls
 * @param session the session on it
 * @param nfs operations through the session
 */
record ItSession(NfsConnection connection, Nfs41Session session, NfsOps nfs) implements AutoCloseable {
    /** Connects to {@code server} and creates a session whose client owner starts with {@code ownerPrefix}. */
    static ItSession open(ServerProcess server, String ownerPrefix) throws IOException {
        NfsConnection connection = server.connect();
        try {
            Nfs41Session session = Nfs41Session.create(connection, ownerPrefix);
            return new ItSession(connection, session, new NfsOps(session));
        } catch (IOException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            session.close();
        } finally {
            connection.close();
        }
    }
}
