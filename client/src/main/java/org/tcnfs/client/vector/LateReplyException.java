package org.tcnfs.client.vector;

import java.io.IOException;
import org.tcnfs.client.rpc.NoReplyException;

/**
 * The server did not answer a call within the client's longest wait although the connection stayed open; the
 * message says what is known of the outcome ({@link #outcome()}) and how to check it, never "lost connection".
 */
public final class LateReplyException extends IOException {
    private static final long serialVersionUID = 1L;

    /** What is known of the outcome of the work whose call got no answer. */
    public enum Known {
        /** A compound of a transaction that spans compounds: it never commits; the server rolls it all back. */
        NOT_COMMITTED,
        /** A commit, or a transaction of one compound: it either committed whole or changed nothing. */
        COMMITTED_OR_NOTHING,
        /** A plain compound: some of its items may have been done, in order, and the later ones not. */
        SOME_DONE
    }

    private final Known outcome;

    LateReplyException(String message, Known outcome, NoReplyException cause) {
        super(message, cause);
        this.outcome = outcome;
    }

    /** What is known of the outcome. */
    public Known outcome() {
        return outcome;
    }
}
