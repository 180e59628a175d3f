package org.tcnfs.nfs4.state;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import org.tcnfs.nfs4.xdr.XdrSupport;

/**
 * Makes the 12-byte {@code other} part of new stateids: 4 bytes of the boot epoch and an 8-byte counter
 * that starts at a random point below 2^40. The epoch is the start time in seconds, or, with a record
 * directory, one more than the previous start's when that is not earlier (see {@code ClientRecord}), so
 * that a stateid of an earlier start is known as stale (RFC 7530 9.1.4.4) even after a restart within the
 * same second. The counter keeps stateids apart across restarts (RFC 8881 8.2.2) and off the all-zeros and
 * all-ones special stateids. Thread-safe.
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
        return forBoot((int) clock.instant().getEpochSecond());
    }

    /** A generator for a server start of boot epoch {@code epoch}. */
    public static StateIdGenerator forBoot(int epoch) {
        long start = 1 + new SecureRandom().nextLong(START_BOUND - 1);
        return new StateIdGenerator(epoch, start);
    }

    /** The boot epoch in the first 4 bytes of every {@code other}. */
    public int epoch() {
        return epoch;
    }

    /**
     * A fresh {@code other} for a state of the NFSv4.0 client {@code clientId}: 4 bytes of the boot epoch,
     * the low 4 bytes of the client id and the low 4 bytes of the counter. The client in it lets a server
     * tell a stateid of a client whose lease expired (NFS4ERR_EXPIRED) from one it never
     * issued, as NFSv4.0 asks.
     */
    public byte[] next(long clientId) {
        long n = counter.getAndIncrement();
        byte[] other = new byte[XdrSupport.NFS4_OTHER_SIZE];
        putInt(other, 0, epoch);
        putInt(other, 4, (int) clientId);
        putInt(other, 8, (int) n);
        return other;
    }

    /** The boot epoch in the first 4 bytes of {@code other}. */
    public static int epochOf(byte[] other) {
        return intAt(other, 0);
    }

    /** The client bits of an {@code other} made by {@link #next(long)}: the low 4 bytes of its client id. */
    public static int clientBitsOf(byte[] other) {
        return intAt(other, 4);
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    private static int intAt(byte[] b, int at) {
        return ((b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
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
