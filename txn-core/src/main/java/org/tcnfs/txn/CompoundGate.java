package org.tcnfs.txn;

import java.time.Duration;
import java.util.Objects;

/**
 * Counts the compounds in flight through the transaction layer, so that shutdown can stop taking new ones,
 * wait for those in flight (a bounded time) and only then stop what they need (the backup cleaner, the
 * handle table). A compound {@link #enter()}s before it takes locks and {@link #exit()}s after it committed
 * or rolled back and released them.
 *
 * <p>Thread-safe.
 */
public final class CompoundGate {
    private int inFlight;
    private boolean closed;

    /** Lets a compound in; false once the gate is closed (the compound must be refused, nothing ran). */
    public synchronized boolean enter() {
        if (closed) {
            return false;
        }
        inFlight++;
        return true;
    }

    /** A compound that {@link #enter()}ed has ended. */
    public synchronized void exit() {
        if (inFlight <= 0) {
            throw new IllegalStateException("exit without enter");
        }
        inFlight--;
        if (inFlight == 0) {
            notifyAll();
        }
    }

    /** Compounds in flight now. */
    public synchronized int inFlight() {
        return inFlight;
    }

    /** Whether the gate takes no more compounds. */
    public synchronized boolean isClosed() {
        return closed;
    }

    /**
     * Takes no more compounds and waits until those in flight have ended, at most {@code timeout}.
     *
     * @return how many are still in flight (0: drained)
     */
    public synchronized int closeAndDrain(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        closed = true;
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean interrupted = false;
        while (inFlight > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                interrupted = true;
                break;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return inFlight;
    }
}
