package org.tcnfs.client.cli;

/** The exit statuses of {@code tcnfs}, stable for scripts. */
public enum ExitCode {
    /** Everything was done. */
    OK(0),
    /** The server refused an operation (missing file, permission, ...); for a transaction: nothing changed. */
    NFS_ERROR(1),
    /** Bad arguments or options. */
    USAGE(2),
    /** The server could not be reached, or the connection or an RPC failed. */
    CONNECTION(3),
    /** A transactional command met a server without transactions (PROC_UNAVAIL); nothing changed. */
    NO_TRANSACTIONS(4),
    /** A transactional command does not fit one compound of the session; nothing was sent. */
    TOO_LARGE(5),
    /** A local file could not be read or written. */
    LOCAL_IO(6),
    /**
     * The server, still connected, did not answer within {@code --max-wait}: the message says what is known (for
     * a transaction's commit: it either committed whole or changed nothing).
     */
    NO_ANSWER(7);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    /** The process exit status. */
    public int code() {
        return code;
    }
}
