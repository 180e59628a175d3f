package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Shutdown with compounds in flight (issue 13, item 3): no new ones, the running ones end first. */
class CompoundGateTest {

    @Test
    void closeWaitsForTheCompoundsInFlightAndRefusesNewOnes() throws Exception {
        CompoundGate gate = new CompoundGate();
        CountDownLatch entered = new CountDownLatch(2);
        CountDownLatch finish = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (int i = 0; i < 2; i++) {
                pool.submit(() -> {
                    assertThat(gate.enter()).isTrue();
                    entered.countDown();
                    finish.await();
                    gate.exit();
                    return null;
                });
            }
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
            Future<Integer> closing = pool.submit(() -> gate.closeAndDrain(Duration.ofSeconds(10)));
            while (!gate.isClosed()) {
                Thread.sleep(1);
            }
            assertThat(gate.enter()).as("a compound arriving during shutdown").isFalse();
            Thread.sleep(50);
            assertThat(closing.isDone()).as("shutdown waits while compounds are in flight").isFalse();
            finish.countDown();
            assertThat(closing.get(5, TimeUnit.SECONDS)).as("compounds left in flight").isZero();
            assertThat(gate.inFlight()).isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void closeGivesUpAfterItsTimeoutAndSaysHowManyAreLeft() {
        CompoundGate gate = new CompoundGate();
        assertThat(gate.enter()).isTrue();
        long start = System.nanoTime();
        assertThat(gate.closeAndDrain(Duration.ofMillis(100))).isEqualTo(1);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
        gate.exit();
        assertThat(gate.closeAndDrain(Duration.ofMillis(100))).as("twice is harmless").isZero();
    }

    @Test
    void closeWithNothingInFlightReturnsAtOnce() {
        CompoundGate gate = new CompoundGate();
        assertThat(gate.closeAndDrain(Duration.ofSeconds(10))).isZero();
        assertThat(gate.enter()).isFalse();
    }
}
