package org.tcnfs.nfs4.state;

import org.tcnfs.nfs4.status.InvalException;

/**
 * A non-empty range of byte offsets, both ends included, compared as unsigned 64-bit numbers (NFSv4
 * offsets and lengths are {@code uint64}). The range that reaches the largest offset stands for "to the end
 * of the file, however long it grows".
 *
 * @param first the first offset in the range
 * @param last the last offset in the range (unsigned, not below {@code first})
 */
public record ByteRange(long first, long last) {
    /** The largest offset, {@code 0xffffffffffffffff}; also the wire length meaning "to end of file". */
    public static final long MAX = -1L;

    public ByteRange {
        if (Long.compareUnsigned(first, last) > 0) {
            throw new IllegalArgumentException("range ends before it starts: " + first + ".." + last);
        }
    }

    /**
     * The range of a LOCK, LOCKT or LOCKU request (RFC 8881 18.10.3): {@code length} bytes from
     * {@code offset}, or everything from {@code offset} on when {@code length} is all ones.
     *
     * @throws InvalException for a zero length, or a range that would pass the largest 64-bit offset
     */
    public static ByteRange of(long offset, long length) throws InvalException {
        if (length == 0) {
            throw new InvalException("lock length 0");
        }
        if (length == MAX) {
            return new ByteRange(offset, MAX);
        }
        // offset + length - 1 must not pass MAX, i.e. length - 1 <= MAX - offset (which is ~offset)
        if (Long.compareUnsigned(length - 1, ~offset) > 0) {
            throw new InvalException("lock range passes the largest 64-bit offset");
        }
        return new ByteRange(offset, offset + length - 1);
    }

    /** The wire offset of this range. */
    public long offset() {
        return first;
    }

    /** The wire length of this range: all ones if it reaches the largest offset. */
    public long length() {
        return last == MAX ? MAX : last - first + 1;
    }

    /** Whether the two ranges share at least one offset. */
    public boolean overlaps(ByteRange o) {
        return Long.compareUnsigned(first, o.last) <= 0 && Long.compareUnsigned(o.first, last) <= 0;
    }

    /** Whether {@code o} starts right after this range ends. */
    public boolean isFollowedBy(ByteRange o) {
        return last != MAX && last + 1 == o.first;
    }

    /** Whether every offset of {@code o} lies in this range. */
    public boolean contains(ByteRange o) {
        return Long.compareUnsigned(first, o.first) <= 0 && Long.compareUnsigned(o.last, last) <= 0;
    }

    @Override
    public String toString() {
        return Long.toUnsignedString(first) + ".." + (last == MAX ? "EOF" : Long.toUnsignedString(last));
    }
}
