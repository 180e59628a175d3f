package org.tcnfs.client.vector.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InterruptedIOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
    @Test
    void aStreakEndsWhenItsBudgetIsSpent() throws InterruptedIOException {
        Backoff backoff = new Backoff(Duration.ofMillis(100));
        int pauses = 0;
        while (backoff.pause()) {
            pauses++;
        }
        // 20 + 40 + 40 (cut at the budget's end)
        assertThat(pauses).isBetween(1, 3);
        assertThat(backoff.pause()).isFalse();
    }

    @Test
    void progressStartsTheBudgetAgainAndKeepsThePausesLong() throws InterruptedIOException {
        Backoff backoff = new Backoff(Duration.ofMillis(100));
        while (backoff.pause()) {
            // spend it
        }
        assertThat(backoff.pause()).isFalse();

        backoff.progressed();

        long start = System.nanoTime();
        assertThat(backoff.pause()).as("a new budget after progress").isTrue();
        // the pause had doubled to 160 ms before; it is cut to the 100 ms budget, not reset to 20 ms
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(60));
    }
}
