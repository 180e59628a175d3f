package org.tcnfs.recovery;

/** A recovery record could not be read or undone; it stays in place, and the server must not serve. */
public final class RecoveryException extends Exception {
    private static final long serialVersionUID = 1L;

    public RecoveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
