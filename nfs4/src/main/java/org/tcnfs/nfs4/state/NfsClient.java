package org.tcnfs.nfs4.state;

/**
 * A client known to the server (an EXCHANGE_ID or SETCLIENTID client id). Placeholder shape; the session
 * layer fills it in.
 */
public class NfsClient {
    private final long clientId;

    public NfsClient(long clientId) {
        this.clientId = clientId;
    }

    /** The client id the server assigned. */
    public long clientId() {
        return clientId;
    }
}
