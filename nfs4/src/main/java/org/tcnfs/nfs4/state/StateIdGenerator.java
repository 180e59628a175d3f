package org.tcnfs.nfs4.state;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import org.tcnfs.nfs4.xdr.XdrSupport;

/**
 * Makes the 12-byte {@code other} part of new stateids: 4 bytes of the boot epoch (the start time in
 * seconds) and an 8-byte counter that starts at a random point below 2^40, so that stateids differ across
 * server restarts (RFC 8881 8.2.2) even when two starts fall into the same second, and never collide with
 * the all-zeros and all-ones special stateids. Thread-safe.
 */
public final class StateIdGenerator {
    private static final long START_BOUND = 1L << 40;

    private final int epoch;
    private final AtomicLong counter;

    /**
     * @param epoch the boot epoch
     * @param firstCounter the counter of the first stateid; not 0 (keeps {@code other} off all zeros)
     */
    public StateIdGenerator(int epoch, long firstCounter) {
        if (firstCounter == 0 || firstCounter == -1L) {
            throw new IllegalArgumentException("counter must not start at 0 or all ones");
        }
        this.epoch = epoch;
        this.counter = new AtomicLong(firstCounter);
    }

    /** A generator for a server that starts now by {@code clock}. */
    public static StateIdGenerator forBoot(Clock clock) {
        long start = 1 + new SecureRandom().nextLong(START_BOUND - 1);
        return new StateIdGenerator((int) clock.instant().getEpochSecond(), start);
    }

    /** The boot epoch in the first 4 bytes of every {@code other}. */
    public int epoch() {
        return epoch;
    }

    /** A fresh {@code other}, never returned before by this generator. */
    public byte[] next() {
        long n = counter.getAndIncrement();
        byte[] other = new byte[XdrSupport.NFS4_OTHER_SIZE];
        other[0] = (byte) (epoch >>> 24);
        other[1] = (byte) (epoch >>> 16);
        other[2] = (byte) (epoch >>> 8);
        other[3] = (byte) epoch;
        for (int i = 0; i < 8; i++) {
            other[4 + i] = (byte) (n >>> (56 - 8 * i));
        }
        return other;
    }
}
