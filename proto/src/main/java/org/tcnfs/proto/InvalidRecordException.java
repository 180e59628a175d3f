package org.tcnfs.proto;

import java.io.IOException;

/**
 * Stored bytes that are not a valid record of this version: not protobuf at all, a record written by a
 * newer format version, a record whose undo steps include a kind this version does not know, or values that
 * break a record's rules (a negative size, a path with "..", ranges that overlap ...).
 *
 * <p>Decoding throws this and nothing else for bad bytes. A caller that meets it must not guess: a recovery
 * record it cannot read is a transaction it cannot undo, so its keys stay fenced and an operator is told.
 */
public final class InvalidRecordException extends IOException {

    private static final long serialVersionUID = 1L;

    /**
     * An invalid record.
     *
     * @param message what is wrong, and where in the record
     */
    public InvalidRecordException(String message) {
        super(message);
    }

    /**
     * An invalid record, found through {@code cause}.
     *
     * @param message what is wrong, and where in the record
     * @param cause the parser's or validator's exception
     */
    public InvalidRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
