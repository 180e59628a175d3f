package org.tcnfs.txn.lock;

import org.tcnfs.txn.TxnException;

/**
 * A lock request died instead of waiting (wait-die, see {@link LockOwner}): a key it needs is held by an older
 * transaction. Nothing of the request is held when it is thrown. A transaction that spans compounds is aborted
 * with NFS4ERR_DEADLOCK (its client retries it whole with its old ticket); a single compound answers
 * NFS4ERR_DELAY.
 */
public final class WaitDieException extends TxnException {
    private static final long serialVersionUID = 1L;

    private final transient LockKey key;

    WaitDieException(LockOwner requester, LockKey key, LockOwner holder) {
        super(requester + " dies rather than wait for " + key + " held by the older " + holder);
        this.key = key;
    }

    /** The key that was held; null after deserialization. */
    public LockKey key() {
        return key;
    }
}
