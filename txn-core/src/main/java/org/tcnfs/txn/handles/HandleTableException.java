package org.tcnfs.txn.handles;

/**
 * The handle table's storage failed (LMDB error, corrupt record, table closed). Unchecked: callers that
 * answer clients turn it into an I/O error.
 */
public class HandleTableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public HandleTableException(String message) {
        super(message);
    }

    public HandleTableException(String message, Throwable cause) {
        super(message, cause);
    }
}
