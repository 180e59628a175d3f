package org.tcnfs.client.vector;

/** The share access of {@link VnfsClient#vopen}. */
public enum OpenAccess {
    READ(1), WRITE(2), BOTH(3);

    private final int bits;

    OpenAccess(int bits) {
        this.bits = bits;
    }

    /** The {@code OPEN4_SHARE_ACCESS_*} value. */
    int bits() {
        return bits;
    }
}
