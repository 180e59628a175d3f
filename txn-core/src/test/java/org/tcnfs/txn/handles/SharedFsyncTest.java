package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SharedFsync}: an fsync serves exactly the callers whose changes came before it started, a failure
 * reaches every caller it served, and unrelated objects never wait for each other.
 */
class SharedFsyncTest {
    private final SharedFsync shared = new SharedFsync();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    /** A disk that counts changes and, per object, how many of them an fsync that ended had seen begin. */
    private static final class CountingDisk {
        /** Changes made so far, over all objects (each caller's change gets the next number). */
        final AtomicLong changes = new AtomicLong();
        /** Per object: every change numbered up to this is durable (an fsync that started after it ended). */
        final AtomicLong[] durableUpTo;
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger mostInFlightPerObject = new AtomicInteger();

        CountingDisk(int objects) {
            durableUpTo = new AtomicLong[objects];
            for (int i = 0; i < objects; i++) {
                durableUpTo[i] = new AtomicLong();
            }
        }

        FsyncPool.Sync fsync(int object, AtomicInteger running) {
            return () -> {
                int now = running.incrementAndGet();
                mostInFlightPerObject.accumulateAndGet(now, Math::max);
                long seen = changes.get();
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                durableUpTo[object].accumulateAndGet(seen, Math::max);
                running.decrementAndGet();
            };
        }
    }

    @Test
    void everyCallerReturnsOnlyAfterAnFsyncThatStartedAfterItsChangeAndConcurrentCallersShareFsyncs()
            throws Exception {
        int objects = 3;
        int callers = 16;
        int rounds = 60;
        CountingDisk disk = new CountingDisk(objects);
        AtomicInteger[] running = new AtomicInteger[objects];
        for (int i = 0; i < objects; i++) {
            running[i] = new AtomicInteger();
        }
        List<Future<List<String>>> results = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int c = 0; c < callers; c++) {
            int caller = c;
            results.add(threads.submit(() -> {
                start.await();
                List<String> violations = new ArrayList<>();
                for (int r = 0; r < rounds; r++) {
                    int object = (caller + r) % objects;
                    long myChange = disk.changes.incrementAndGet();
                    shared.sync("object-" + object, disk.fsync(object, running[object]));
                    long durable = disk.durableUpTo[object].get();
                    if (durable < myChange) {
                        violations.add("caller " + caller + " change " + myChange + " returned with object " + object
                                + " durable only up to " + durable);
                    }
                }
                return violations;
            }));
        }
        start.countDown();
        List<String> violations = new ArrayList<>();
        for (Future<List<String>> f : results) {
            violations.addAll(f.get(60, TimeUnit.SECONDS));
        }

        assertThat(violations).isEmpty();
        assertThat(shared.requests()).isEqualTo((long) callers * rounds);
        assertThat(shared.runs()).as("16 callers on 3 objects share fsyncs").isLessThan(shared.requests() / 2);
        assertThat(disk.mostInFlightPerObject.get()).as("one fsync of an object at a time").isEqualTo(1);
        assertThat(shared.inProgress()).isZero();
    }

    @Test
    void anFsyncThatBeganBeforeACallDoesNotServeIt() throws Exception {
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        AtomicInteger secondRan = new AtomicInteger();
        Future<?> first = threads.submit(() -> {
            shared.sync("dir", () -> {
                firstRunning.countDown();
                await(releaseFirst);
            });
            return null;
        });
        assertThat(firstRunning.await(10, TimeUnit.SECONDS)).isTrue();
        Future<?> second = threads.submit(() -> {
            shared.sync("dir", secondRan::incrementAndGet);
            return null;
        });
        waitForCallers(2);
        releaseFirst.countDown();
        first.get(10, TimeUnit.SECONDS);
        second.get(10, TimeUnit.SECONDS);

        assertThat(secondRan.get()).as("the second caller's change needed an fsync of its own").isEqualTo(1);
        assertThat(shared.runs()).isEqualTo(2);
    }

    @Test
    void callersWaitingForTheSameFsyncShareOneAndAFailureReachesEveryOneOfThem() throws Exception {
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        Future<?> first = threads.submit(() -> {
            shared.sync("dir", () -> {
                firstRunning.countDown();
                await(releaseFirst);
            });
            return null;
        });
        assertThat(firstRunning.await(10, TimeUnit.SECONDS)).isTrue();
        int waiting = 6;
        AtomicInteger failingRuns = new AtomicInteger();
        List<Future<?>> round = new ArrayList<>();
        for (int i = 0; i < waiting; i++) {
            round.add(threads.submit(() -> {
                shared.sync("dir", () -> {
                    failingRuns.incrementAndGet();
                    throw new IOException("disk gone");
                });
                return null;
            }));
        }
        waitForCallers(1 + waiting);
        releaseFirst.countDown();
        first.get(10, TimeUnit.SECONDS);
        for (Future<?> f : round) {
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).hasRootCauseInstanceOf(IOException.class)
                    .hasRootCauseMessage("disk gone");
        }
        assertThat(failingRuns.get()).as("the six callers that joined during the first fsync share one").isEqualTo(1);

        AtomicInteger later = new AtomicInteger();
        shared.sync("dir", later::incrementAndGet);
        assertThat(later.get()).as("the next caller gets an fsync of its own, not the failed one").isEqualTo(1);
        assertThat(shared.runs()).isEqualTo(3);
        assertThat(shared.inProgress()).isZero();
    }

    @Test
    void fsyncsOfDifferentObjectsDoNotWaitForEachOther() throws Exception {
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        Future<?> first = threads.submit(() -> {
            shared.sync("a", () -> {
                firstRunning.countDown();
                await(releaseFirst);
            });
            return null;
        });
        assertThat(firstRunning.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicInteger otherRan = new AtomicInteger();
        threads.submit(() -> {
            shared.sync("b", otherRan::incrementAndGet);
            return null;
        }).get(10, TimeUnit.SECONDS);
        assertThat(otherRan.get()).isEqualTo(1);
        releaseFirst.countDown();
        first.get(10, TimeUnit.SECONDS);
    }

    @Test
    void aRuntimeFailureOfTheFsyncReachesItsCallerAndLeavesNothingBehind() {
        assertThatThrownBy(() -> shared.sync("x", () -> {
            throw new IllegalStateException("closed");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(shared.inProgress()).isZero();
    }

    /** Waits until {@code n} callers are syncing {@code "dir"} (running or joined to a round). */
    private void waitForCallers(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (shared.callers("dir") < n && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(shared.callers("dir")).isEqualTo(n);
    }

    private static void await(CountDownLatch latch) throws IOException {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IOException("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
