package org.tcnfs.nfs4.state;

import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.xdr.nfs_lock_type4;

/** The two kinds of byte-range lock: shared (READ) and exclusive (WRITE). */
public enum LockType {
    READ,
    WRITE;

    /**
     * The lock type of a wire {@code nfs_lock_type4}; the blocking variants READW_LT and WRITEW_LT count as
     * their non-blocking kin (this server never makes a request wait; a denied blocking request is only
     * queued, see {@link LockWait}).
     *
     * @throws InvalException for any other value
     */
    public static LockType of(int nfsLockType) throws InvalException {
        return switch (nfsLockType) {
            case nfs_lock_type4.READ_LT, nfs_lock_type4.READW_LT -> READ;
            case nfs_lock_type4.WRITE_LT, nfs_lock_type4.WRITEW_LT -> WRITE;
            default -> throw new InvalException("unknown lock type " + nfsLockType);
        };
    }

    /** The non-blocking wire value of this type. */
    public int toWire() {
        return this == READ ? nfs_lock_type4.READ_LT : nfs_lock_type4.WRITE_LT;
    }

    /** Whether a lock of this type and one of {@code other} held by different owners cannot coexist. */
    public boolean conflictsWith(LockType other) {
        return this == WRITE || other == WRITE;
    }
}
