package org.tcnfs.txn.lock;

import org.tcnfs.txn.TxnException;

/**
 * The thread was interrupted while waiting for locks. Nothing is held when it is thrown, and the thread's
 * interrupt flag is set again. The compound layer answers NFS4ERR_DELAY (the server is usually stopping).
 */
public final class LockInterruptedException extends TxnException {
    private static final long serialVersionUID = 1L;

    LockInterruptedException(InterruptedException cause) {
        super("interrupted while waiting for locks", cause);
    }
}
