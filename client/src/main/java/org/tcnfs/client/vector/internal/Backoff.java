package org.tcnfs.client.vector.internal;

import java.io.InterruptedIOException;
import java.time.Duration;

/**
 * Growing pauses between retries of a request the server answered "not now" (NFS4ERR_DELAY, NFS4ERR_GRACE,
 * NFS4ERR_DEADLOCK of a transaction that spans compounds): 20 ms, doubling up to 1 s, for at most a budget
 * counted from its creation, or from the last {@link #progressed()}. Not thread-safe: one per retry streak.
 */
public final class Backoff {
    private static final long FIRST_PAUSE_MILLIS = 20;
    private static final long MAX_PAUSE_MILLIS = 1000;

    private final long budgetNanos;
    private long deadlineNanos;
    private long pauseMillis = FIRST_PAUSE_MILLIS;
    private int pauses;

    /** A streak that may last {@code budget}. */
    public Backoff(Duration budget) {
        this.budgetNanos = budget.toNanos();
        this.deadlineNanos = System.nanoTime() + budgetNanos;
    }

    /**
     * The caller saw progress (what counts is its decision): the budget starts again from now. The pauses keep
     * their length.
     */
    public void progressed() {
        deadlineNanos = System.nanoTime() + budgetNanos;
    }

    /**
     * Sleeps the next pause and returns true, or returns false at once when the budget is spent (the caller
     * gives up then); a pause is cut to end at the budget's end.
     *
     * @throws InterruptedIOException when the thread is interrupted while it sleeps
     */
    public boolean pause() throws InterruptedIOException {
        long leftMillis = (deadlineNanos - System.nanoTime()) / 1_000_000;
        if (leftMillis <= 0) {
            return false;
        }
        try {
            Thread.sleep(Math.min(pauseMillis, leftMillis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to retry");
        }
        pauseMillis = Math.min(MAX_PAUSE_MILLIS, pauseMillis * 2);
        pauses++;
        return true;
    }

    /** How many pauses were taken so far. */
    public int pauses() {
        return pauses;
    }
}
