package org.tcnfs.client.vector;

import java.io.IOException;

/**
 * A transactional call (or one item of any call) does not fit one compound of the session's negotiated limits,
 * so it was refused before anything was sent. A transaction is never split.
 */
public final class CompoundTooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int operations;
    private final long requestBytes;

    public CompoundTooLargeException(String what, int operations, long requestBytes, long replyBytes,
            int maxOperations, long maxRequestBytes, long maxReplyBytes) {
        super(what + " needs " + operations + " operations, " + requestBytes + " request bytes and up to "
                + replyBytes + " reply bytes in one compound; the session allows " + maxOperations
                + " operations, " + maxRequestBytes + " request bytes and " + maxReplyBytes
                + " reply bytes (after SEQUENCE and headers); nothing was sent");
        this.operations = operations;
        this.requestBytes = requestBytes;
    }

    /** Operations the call needed (without SEQUENCE). */
    public int operations() {
        return operations;
    }

    /** Encoded size of those operations. */
    public long requestBytes() {
        return requestBytes;
    }
}
