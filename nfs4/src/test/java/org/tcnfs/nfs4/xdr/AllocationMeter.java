package org.tcnfs.nfs4.xdr;

import java.lang.management.ManagementFactory;

/**
 * Test helper: the bytes the current thread has allocated (HotSpot's per-thread allocation counter). The
 * fuzz targets read it before and after decoding to check that a decoder allocates in proportion to the
 * bytes it was given, not to a length those bytes merely claim.
 */
public final class AllocationMeter {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private AllocationMeter() {
    }

    /** The bytes allocated by this thread so far. */
    public static long allocatedSoFar() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    /**
     * What decoding {@code inputBytes} bytes may allocate: a fixed allowance for the decoder's own objects
     * plus {@code perByte} for every byte given. A length that the input claims but does not carry must
     * not be allocated before it is checked.
     */
    public static long budget(int inputBytes, int perByte) {
        return 16 * 1024 + (long) perByte * inputBytes;
    }
}
