package org.tcnfs.nfs4.compound;

/**
 * A fixed set of NFSv4 operation numbers, asked once or more per operation of every COMPOUND: a bit per number below
 * 128 (every operation RFC 7530 and RFC 8881 define, ILLEGAL aside, which is in no set), so {@link #contains} needs
 * no boxing and no hashing. Immutable.
 */
public final class OperationSet {
    /** Operation numbers this set can hold: 0 to 127. */
    private static final int LIMIT = 128;

    private final long low;
    private final long high;

    private OperationSet(long low, long high) {
        this.low = low;
        this.high = high;
    }

    /**
     * The set of {@code ops}.
     *
     * @throws IllegalArgumentException for a number outside 0-127 (OP_ILLEGAL among them)
     */
    public static OperationSet of(int... ops) {
        long low = 0;
        long high = 0;
        for (int op : ops) {
            if (op < 0 || op >= LIMIT) {
                throw new IllegalArgumentException("operation number " + op + " outside 0-" + (LIMIT - 1));
            }
            if (op < 64) {
                low |= 1L << op;
            } else {
                high |= 1L << op;
            }
        }
        return new OperationSet(low, high);
    }

    /** Whether {@code op} is in the set (false for any number outside 0-127). */
    public boolean contains(int op) {
        if (op < 0 || op >= LIMIT) {
            return false;
        }
        return ((op < 64 ? low : high) & 1L << op) != 0;
    }
}
