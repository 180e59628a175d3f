package org.tcnfs.nfs4.compound;

/** The MDC keys every log line of a request carries; the compound entry sets and clears them. */
public final class TcnfsMdc {
    /** The client's address. */
    public static final String CLIENT = "client";
    /** The session id, hex. */
    public static final String SESSION = "session";
    /** The compound's tag. */
    public static final String TAG = "tag";
    /** The RPC xid of the compound. */
    public static final String COMPOUND = "compound";
    /** The transaction id, when the compound runs as one. */
    public static final String TXN = "txn";

    private TcnfsMdc() {
    }
}
