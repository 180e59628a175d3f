package org.tcnfs.txn;

import java.io.IOException;

/**
 * Root of the failures the transaction layer reports to the compound layer: a lock that could not be
 * taken in time, an undo that failed, ... Each concrete kind is its own final subclass (for example
 * {@link org.tcnfs.txn.lock.LockTimeoutException}), so callers map them by type.
 *
 * <p>Checked, and an {@link IOException}, on purpose: {@code NfsOperation.process} and the VFS already
 * throw {@code IOException}, so a {@code TxnException} travels through operations unwrapped, and the
 * compiler reminds every other caller to handle it. The compound layer's operation executor is the only
 * place that turns one into a status (a lock timeout into NFS4ERR_DELAY, an undo failure into
 * NFS4ERR_SERVERFAULT); it must catch {@code TxnException} before its generic {@code IOException} branch.
 */
public abstract class TxnException extends IOException {
    private static final long serialVersionUID = 1L;

    protected TxnException(String message) {
        super(message);
    }

    protected TxnException(String message, Throwable cause) {
        super(message, cause);
    }
}
