package org.tcnfs.nfs4.state;

import java.util.Objects;

/**
 * One byte-range lock held on a file.
 *
 * @param owner the lock owner that holds it
 * @param type shared or exclusive
 * @param range the bytes it covers
 */
public record ByteRangeLock(StateOwner owner, LockType type, ByteRange range) {
    public ByteRangeLock {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(range, "range");
    }

    /** Whether this lock keeps {@code other} from taking {@code wanted} over {@code range}. */
    public boolean blocks(StateOwner other, LockType wanted, ByteRange wantedRange) {
        return !owner.equals(other) && range.overlaps(wantedRange) && type.conflictsWith(wanted);
    }
}
