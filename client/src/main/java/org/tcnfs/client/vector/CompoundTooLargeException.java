package org.tcnfs.client.vector;

import java.io.IOException;

/**
 * One item of a call does not fit one compound of the session's negotiated limits, so it was refused before
 * anything was sent. (A transactional call larger than one compound runs as a transaction that spans compounds,
 * its writes larger than one compound in parts; only an item that cannot be split is refused.)
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
