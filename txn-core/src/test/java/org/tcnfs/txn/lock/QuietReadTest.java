package org.tcnfs.txn.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Quiet reads ({@link LockManager#enterQuietRead()}): a read-only compound runs without keys only while no set holds
 * or waits for a WRITE lock, and a writer waits for the quiet reads in flight, so the two never overlap.
 */
@Timeout(30)
class QuietReadTest {
    private static final Duration LONG = Duration.ofSeconds(10);

    private final LockManager locks = new LockManager();
    private final ExecutorService other = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() throws Exception {
        other.shutdownNow();
        assertThat(other.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private static List<LockRequest> write(String relative) {
        return List.of(LockRequest.write(LockKey.parse("e", relative)));
    }

    private static List<LockRequest> read(String relative) {
        return List.of(LockRequest.read(LockKey.parse("e", relative)));
    }

    @Test
    void quietReadHoldsNoKeyAndEndsWhenClosed() {
        LockSet quiet = locks.enterQuietRead();

        assertThat(quiet).isNotNull();
        assertThat(quiet.isQuiet()).isTrue();
        assertThat(quiet.locksHeld()).isZero();
        assertThat(locks.keysInUse()).isZero();
        assertThat(locks.quietReadsInFlight()).isEqualTo(1);
        quiet.close();
        quiet.close();
        assertThat(locks.quietReadsInFlight()).isZero();
        assertThat(locks.quietReads()).isEqualTo(1);
    }

    @Test
    void quietReadIsRefusedWhileAWriteLockIsHeldAndAllowedAfterIt() throws Exception {
        LockSet writer = other.submit(() -> locks.acquire(write("d/f"), LONG)).get(10, TimeUnit.SECONDS);

        assertThat(locks.enterQuietRead()).isNull();
        other.submit(writer::close).get(10, TimeUnit.SECONDS);
        try (LockSet quiet = locks.enterQuietRead()) {
            assertThat(quiet).isNotNull();
        }
    }

    @Test
    void readLocksDoNotStopQuietReads() throws Exception {
        LockSet reader = other.submit(() -> locks.acquire(read("d/f"), LONG)).get(10, TimeUnit.SECONDS);

        try (LockSet quiet = locks.enterQuietRead()) {
            assertThat(quiet).isNotNull();
        }
        other.submit(reader::close).get(10, TimeUnit.SECONDS);
    }

    @Test
    void writerWaitsForTheQuietReadInFlightAndNoNewOneStartsMeanwhile() throws Exception {
        LockSet quiet = locks.enterQuietRead();
        Future<LockSet> writer = other.submit(() -> locks.acquire(write("d/f"), LONG));

        assertThatThrownBy(() -> writer.get(200, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        ExecutorService third = Executors.newSingleThreadExecutor();
        try {
            assertThat(third.submit(locks::enterQuietRead).get(10, TimeUnit.SECONDS))
                    .as("a quiet read while a writer waits").isNull();
        } finally {
            third.shutdownNow();
        }
        quiet.close();
        LockSet written = writer.get(10, TimeUnit.SECONDS);
        assertThat(written.holds(LockKey.parse("e", "d/f"), LockMode.WRITE)).isTrue();
        other.submit(written::close).get(10, TimeUnit.SECONDS);
        try (LockSet again = locks.enterQuietRead()) {
            assertThat(again).as("quiet reads come back once the writer is gone").isNotNull();
        }
    }

    @Test
    void writerThatWaitsTooLongForQuietReadsTimesOutAndStopsNothing() throws Exception {
        LockSet quiet = locks.enterQuietRead();

        Future<Object> writer = other.submit(() -> {
            try {
                return locks.acquire(write("d/f"), Duration.ofMillis(100));
            } catch (LockTimeoutException e) {
                return e;
            }
        });
        assertThat(writer.get(10, TimeUnit.SECONDS)).isInstanceOf(LockTimeoutException.class);
        assertThat(locks.timeouts()).isEqualTo(1);
        assertThat(locks.keysInUse()).isZero();
        quiet.close();
        try (LockSet next = locks.enterQuietRead()) {
            assertThat(next).as("the writer that gave up no longer counts").isNotNull();
        }
    }

    @Test
    void aQuietReadIsTheThreadsOpenSet() throws Exception {
        try (LockSet quiet = locks.enterQuietRead()) {
            assertThatThrownBy(() -> locks.acquire(read("d/f"), LONG)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(locks::enterQuietRead).isInstanceOf(IllegalStateException.class);
        }
        locks.acquire(read("d/f"), LONG).close();
    }

    @Test
    void transactionThatSpansCompoundsKeepsQuietReadsAwayUntilItsWriteSetCloses() throws Exception {
        LockOwner txn = LockOwner.transaction(1, "t1");
        LockSet first = locks.acquireFor(txn, write("d/f"), LONG);

        assertThat(locks.enterQuietRead()).isNull();
        first.close();
        try (LockSet quiet = locks.enterQuietRead()) {
            assertThat(quiet).isNotNull();
        }
    }
}
