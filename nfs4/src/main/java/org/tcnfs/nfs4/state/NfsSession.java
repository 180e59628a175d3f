package org.tcnfs.nfs4.state;

/**
 * An NFSv4.1 session. Placeholder shape; the session layer fills it in.
 */
public class NfsSession {
    private final NfsClient client;

    public NfsSession(NfsClient client) {
        this.client = client;
    }

    /** The client that owns the session. */
    public NfsClient client() {
        return client;
    }
}
