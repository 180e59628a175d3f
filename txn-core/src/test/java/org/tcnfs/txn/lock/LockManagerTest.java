package org.tcnfs.txn.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tcnfs.txn.TxnException;

@Timeout(30)
class LockManagerTest {
    private static final Duration LONG = Duration.ofSeconds(10);
    private static final Duration SHORT = Duration.ofMillis(100);

    /** Another thread that acquires and closes its sets itself, as the lock manager requires. */
    private final ExecutorService other = Executors.newSingleThreadExecutor();
    private final List<LockSet> mine = new ArrayList<>();

    @AfterEach
    void releaseEverything() throws Exception {
        mine.forEach(LockSet::close);
        other.shutdownNow();
        assertThat(other.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private static LockKey path(String relative) {
        return LockKey.parse("e", relative);
    }

    private static LockRequest read(String relative) {
        return LockRequest.read(path(relative));
    }

    private static LockRequest write(String relative) {
        return LockRequest.write(path(relative));
    }

    private LockSet acquire(LockManager manager, Duration timeout, LockRequest... requests) throws TxnException {
        LockSet set = manager.acquire(List.of(requests), timeout);
        mine.add(set);
        return set;
    }

    /** Acquires on the other thread and keeps the set open until {@link #closeOnOther}. */
    private Future<LockSet> acquireOnOther(LockManager manager, Duration timeout, LockRequest... requests) {
        return other.submit(() -> manager.acquire(List.of(requests), timeout));
    }

    private LockSet holdOnOther(LockManager manager, LockRequest... requests) throws Exception {
        return acquireOnOther(manager, LONG, requests).get(10, TimeUnit.SECONDS);
    }

    private void closeOnOther(LockSet set) throws Exception {
        other.submit(set::close).get(10, TimeUnit.SECONDS);
    }

    private <T> T onOther(Callable<T> task) throws Exception {
        return other.submit(task).get(10, TimeUnit.SECONDS);
    }

    /** Whether no set holds or waits for {@code key}: its lock is gone from the manager. */
    private static void assertFree(LockManager manager, LockKey key) {
        assertThat(manager.lockOf(key)).as("lock of %s", key).isNull();
    }

    private static List<LockRequest> writesOfFilesIn(String directory, int files) {
        List<LockRequest> requests = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            requests.add(write(directory + "/f" + i));
        }
        return requests;
    }

    @Test
    void acquireReadLocksEveryAncestorAndLocksTheKeyInItsMode() throws Exception {
        LockManager manager = new LockManager();
        LockSet set = acquire(manager, LONG, write("a/b/c"));

        assertThat(set.keys()).containsExactly(
                entry(path(""), LockMode.READ),
                entry(path("a"), LockMode.READ),
                entry(path("a/b"), LockMode.READ),
                entry(path("a/b/c"), LockMode.WRITE));
        assertThat(set.holds(path("a/b/c"), LockMode.WRITE)).isTrue();
        assertThat(set.holds(path("a"), LockMode.READ)).isTrue();
        assertThat(set.holds(path("a"), LockMode.WRITE)).isFalse();
        assertThat(set.holds(path("x"), LockMode.READ)).isFalse();
        // the ancestor locks really are held: a writer of "a" has to wait
        Future<LockSet> renamer = acquireOnOther(manager, SHORT, write("a"));
        assertThatThrownBy(() -> renamer.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(LockTimeoutException.class);
    }

    @Test
    void keysSharingAncestorsEachGetEveryAncestorWhateverTheOrderOfTheRequests() throws Exception {
        LockManager manager = new LockManager();
        LockSet set = acquire(manager, LONG, write("a/b"), read("a/b/c/d"), write("a/x/y"), write("a"));

        assertThat(set.keys()).containsExactly(
                entry(path(""), LockMode.READ),
                entry(path("a"), LockMode.WRITE),
                entry(path("a/b"), LockMode.WRITE),
                entry(path("a/b/c"), LockMode.READ),
                entry(path("a/b/c/d"), LockMode.READ),
                entry(path("a/x"), LockMode.READ),
                entry(path("a/x/y"), LockMode.WRITE));
    }

    @Test
    void directoryRenameBlocksWriterBeneathUntilReleased() throws Exception {
        LockManager manager = new LockManager();
        LockSet rename = acquire(manager, LONG, write("a"), write("z"));

        Future<LockSet> writer = acquireOnOther(manager, LONG, write("a/b/c"));
        assertThatThrownBy(() -> writer.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);

        rename.close();
        LockSet granted = writer.get(10, TimeUnit.SECONDS);
        assertThat(granted.holds(path("a/b/c"), LockMode.WRITE)).isTrue();
        closeOnOther(granted);
    }

    @Test
    void writerBeneathBlocksDirectoryRename() throws Exception {
        LockManager manager = new LockManager();
        LockSet writer = holdOnOther(manager, write("a/b/c"));

        assertThatThrownBy(() -> acquire(manager, SHORT, write("a"))).isInstanceOf(LockTimeoutException.class);
        assertThatThrownBy(() -> acquire(manager, SHORT, read("a/b/c"))).isInstanceOf(LockTimeoutException.class);

        closeOnOther(writer);
        assertThat(acquire(manager, SHORT, write("a")).isOpen()).isTrue();
    }

    @Test
    void readersOfOneKeyShareIt() throws Exception {
        LockManager manager = new LockManager();
        LockSet first = acquire(manager, LONG, read("a/b"));

        LockSet second = onOther(() -> manager.acquire(List.of(read("a/b"), read("a")), Duration.ZERO));
        assertThat(second.holds(path("a/b"), LockMode.READ)).isTrue();
        assertThat(first.holds(path("a/b"), LockMode.READ)).isTrue();
        closeOnOther(second);
    }

    /**
     * A key's lock keeps its first reader apart from the others (h-warm): whichever reader leaves first, the ones
     * left still keep a writer out, and the writer gets the key when the last has gone.
     */
    @Test
    void aWriterWaitsForEveryReaderOfAKeyWhicheverOfThemLeavesFirst() throws Exception {
        LockManager manager = new LockManager();
        List<ExecutorService> readers = List.of(Executors.newSingleThreadExecutor(),
                Executors.newSingleThreadExecutor(), Executors.newSingleThreadExecutor());
        try {
            for (int leavesFirst = 0; leavesFirst < readers.size(); leavesFirst++) {
                List<LockSet> sets = new ArrayList<>();
                for (ExecutorService reader : readers) {
                    sets.add(reader.submit(() -> manager.acquire(List.of(read("a")), SHORT)).get(10, TimeUnit.SECONDS));
                }
                assertThat(manager.lockOf(path("a")).getReadLockCount()).isEqualTo(3);
                List<Integer> order = new ArrayList<>(List.of(0, 1, 2));
                order.remove(Integer.valueOf(leavesFirst));
                order.add(0, leavesFirst);
                for (int i : order) {
                    assertThatThrownBy(() -> acquire(manager, SHORT, write("a")))
                            .isInstanceOf(LockTimeoutException.class);
                    LockSet set = sets.get(i);
                    readers.get(i).submit(set::close).get(10, TimeUnit.SECONDS);
                }
                try (LockSet writer = manager.acquire(List.of(write("a")), Duration.ZERO)) {
                    assertThat(writer.holds(path("a"), LockMode.WRITE)).isTrue();
                }
                assertFree(manager, path("a"));
            }
        } finally {
            readers.forEach(ExecutorService::shutdownNow);
        }
    }

    @Test
    void writersOfSiblingsDoNotWaitForEachOther() throws Exception {
        LockManager manager = new LockManager();
        acquire(manager, LONG, write("a/b"));

        LockSet sibling = onOther(() -> manager.acquire(List.of(write("a/c")), Duration.ZERO));
        assertThat(sibling.isOpen()).isTrue();
        closeOnOther(sibling);
    }

    @Test
    void duplicateRequestsMergeAndWriteWins() throws Exception {
        LockManager manager = new LockManager();
        LockSet set = acquire(manager, LONG, read("a/b"), write("a/b"), read("a/b"), write("a"), read("a/b/c"));

        assertThat(set.keys()).containsExactly(
                entry(path(""), LockMode.READ),
                entry(path("a"), LockMode.WRITE),
                entry(path("a/b"), LockMode.WRITE),
                entry(path("a/b/c"), LockMode.READ));
        assertThat(set.locksHeld()).isEqualTo(4);
        Future<LockSet> reader = acquireOnOther(manager, SHORT, read("a/b"));
        assertThatThrownBy(() -> reader.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(LockTimeoutException.class);
    }

    @Test
    void aKeyWantedForReadingAndWritingIsLockedOnceForWriting() throws Exception {
        LockManager manager = new LockManager();
        for (List<LockRequest> requests : List.of(
                List.of(read("y"), write("y/z"), write("y")),
                List.of(write("y"), read("y"), read("y/z/w")))) {
            try (LockSet set = manager.acquire(requests, SHORT)) {
                LockManager.KeyLock lock = manager.lockOf(path("y"));
                assertThat(lock.isWriteLockedByCurrentThread()).isTrue();
                assertThat(lock.getWriteHoldCount()).isEqualTo(1);
                assertThat(lock.getReadHoldCount()).isZero();
                assertThat(set.holds(path("y"), LockMode.READ)).isTrue();
            }
            assertFree(manager, path("y"));
            assertThat(manager.keysInUse()).isZero();
        }
        assertThat(manager.timeouts()).isZero();
    }

    @Test
    void largeSetsOfDifferentKeysNeverConflict() throws Exception {
        LockManager manager = new LockManager();
        LockSet a = holdOnOther(manager, writesOfFilesIn("a", 1_000).toArray(LockRequest[]::new));

        // with locks shared by hashing (stripes), two sets of 1,000 keys would almost surely collide
        LockSet b = acquire(manager, Duration.ZERO, writesOfFilesIn("b", 1_000).toArray(LockRequest[]::new));
        assertThat(b.locksHeld()).isEqualTo(1_002); // root, "b" and its 1,000 files
        assertThat(manager.keysInUse()).isEqualTo(2_003); // the root is shared
        assertThat(manager.timeouts()).isZero();
        closeOnOther(a);
    }

    @Test
    void timeoutReleasesEveryLockAlreadyTaken() throws Exception {
        LockManager manager = new LockManager();
        LockKey blocker = LockKey.ofObject("e", 1_000_000); // sorts after every key below
        LockSet held = holdOnOther(manager, LockRequest.write(blocker));
        List<LockRequest> everywhere = new ArrayList<>(writesOfFilesIn("d", 100));
        for (int i = 0; i < 100; i++) {
            everywhere.add(LockRequest.write(LockKey.ofObject("e", i)));
        }
        everywhere.add(LockRequest.read(blocker));

        assertThatThrownBy(() -> manager.acquire(everywhere, SHORT))
                .isInstanceOfSatisfying(LockTimeoutException.class, e -> {
                    assertThat(e).isInstanceOf(TxnException.class);
                    assertThat(e.waitingFor()).isEqualTo(blocker);
                    assertThat(e.mode()).isEqualTo(LockMode.READ);
                    assertThat(e.timeout()).isEqualTo(SHORT);
                });

        assertThat(manager.keysInUse()).as("only the blocker's lock is left").isEqualTo(1);
        assertThat(manager.lockOf(blocker).isWriteLocked()).isTrue();
        assertThat(manager.timeouts()).isEqualTo(1);
        assertThat(manager.acquisitions()).isEqualTo(1);
        // nothing is left behind on this thread either: it may acquire again
        closeOnOther(held);
        try (LockSet all = manager.acquire(everywhere, SHORT)) {
            assertThat(all.locksHeld()).isEqualTo(2 + 100 + 100 + 1);
        }
        assertThat(manager.keysInUse()).isZero();
    }

    @Test
    void zeroTimeoutTriesOnceWithoutWaiting() throws Exception {
        LockManager manager = new LockManager();
        holdOnOther(manager, write("a"));
        long start = System.nanoTime();

        assertThatThrownBy(() -> manager.acquire(List.of(read("a")), Duration.ZERO))
                .isInstanceOf(LockTimeoutException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void twoNamesOfOneFileExcludeEachOtherThroughTheObjectKey() throws Exception {
        LockManager manager = new LockManager();
        LockKey inode = LockKey.ofObject("e", 42);
        holdOnOther(manager, write("x"), LockRequest.write(inode));

        assertThatThrownBy(() -> acquire(manager, SHORT, write("dir/y"), LockRequest.write(inode)))
                .isInstanceOf(LockTimeoutException.class);
        LockSet set = acquire(manager, SHORT, write("dir/y"), LockRequest.write(LockKey.ofObject("e", 43)));
        assertThat(set.keys()).containsKey(LockKey.ofObject("e", 43)).doesNotContainKey(inode);
    }

    @Test
    void objectKeyLocksNothingElse() throws Exception {
        LockManager manager = new LockManager();
        LockSet set = acquire(manager, SHORT, LockRequest.write(LockKey.ofObject("e", 42)));

        assertThat(set.keys()).containsOnlyKeys(LockKey.ofObject("e", 42));
    }

    @Test
    void closingTwiceIsHarmlessAndAClosedSetHoldsNothing() throws Exception {
        LockManager manager = new LockManager();
        LockSet set = manager.acquire(List.of(write("a/b")), SHORT);
        set.close();
        set.close();

        assertThat(set.isOpen()).isFalse();
        assertThat(set.holds(path("a/b"), LockMode.WRITE)).isFalse();
        assertThat(set.locksHeld()).isZero();
        assertFree(manager, path("a/b"));
        assertThat(manager.keysInUse()).isZero();
    }

    @Test
    void closingOnAnotherThreadIsRejectedAndReleasesNothing() throws Exception {
        LockManager manager = new LockManager();
        LockSet set = acquire(manager, SHORT, write("a"));

        Future<?> foreignClose = other.submit(set::close);
        assertThatThrownBy(() -> foreignClose.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalStateException.class);
        assertThat(set.isOpen()).isTrue();
        assertThat(manager.lockOf(path("a")).isWriteLockedByCurrentThread()).isTrue();
        set.close();
        assertThat(set.isOpen()).isFalse();
    }

    @Test
    void aSecondOpenSetOnOneThreadIsRejected() throws Exception {
        LockManager manager = new LockManager();
        LockSet first = manager.acquire(List.of(read("a")), SHORT);

        assertThatThrownBy(() -> manager.acquire(List.of(write("b")), SHORT)).isInstanceOf(IllegalStateException.class);
        first.close();
        try (LockSet second = manager.acquire(List.of(write("b")), SHORT)) {
            assertThat(second.isOpen()).isTrue();
        }
    }

    @Test
    void interruptedWaitReleasesEverythingAndKeepsTheInterruptFlag() throws Exception {
        LockManager manager = new LockManager();
        LockKey blocker = LockKey.ofObject("e", 1_000_000);
        holdOnOther(manager, LockRequest.write(blocker));
        List<LockRequest> requests = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            requests.add(LockRequest.read(LockKey.ofObject("e", i)));
        }
        requests.add(LockRequest.read(blocker));
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> flagAfter = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                manager.acquire(requests, LONG).close();
            } catch (TxnException e) {
                thrown.set(e);
            }
            flagAfter.set(Thread.currentThread().isInterrupted());
        });
        waiter.start();
        while (waiter.isAlive() && !queuedOn(manager, blocker, waiter)) {
            Thread.sleep(1);
        }
        waiter.interrupt();
        waiter.join(10_000);

        assertThat(thrown.get()).isInstanceOf(LockInterruptedException.class);
        assertThat(flagAfter.get()).isTrue();
        assertThat(manager.keysInUse()).as("only the blocker's lock is left").isEqualTo(1);
    }

    private static boolean queuedOn(LockManager manager, LockKey key, Thread thread) {
        LockManager.KeyLock lock = manager.lockOf(key);
        return lock != null && lock.hasQueuedThread(thread);
    }

    @Test
    void metricsCountAcquisitionsWaitTimeAndTimeouts() throws Exception {
        LockManager manager = new LockManager();
        manager.acquire(List.of(write("a")), SHORT).close();
        LockSet held = holdOnOther(manager, write("b"));
        assertThatThrownBy(() -> manager.acquire(List.of(read("b")), Duration.ofMillis(50)))
                .isInstanceOf(LockTimeoutException.class);
        closeOnOther(held);

        assertThat(manager.acquisitions()).isEqualTo(2);
        assertThat(manager.timeouts()).isEqualTo(1);
        assertThat(manager.waitNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(50).toNanos());
    }

    @Test
    void blockedWaitsAreCountedByTheRoleOfTheKeyWaitedFor() throws Exception {
        LockManager manager = new LockManager();
        LockSet creator = holdOnOther(manager, write("shared"), write("shared/s1"));
        Thread waiter = new Thread(() -> {
            try {
                manager.acquire(List.of(write("shared"), write("shared/s2")), LONG).close();
            } catch (TxnException e) {
                throw new IllegalStateException(e);
            }
        });
        waiter.start();
        while (!queuedOn(manager, path("shared"), waiter)) {
            Thread.sleep(1);
        }
        Thread.sleep(20);
        closeOnOther(creator);
        waiter.join(10_000);

        assertThat(manager.blockedWaits(LockManager.KeyRole.DIRECTORY, LockMode.WRITE)).isEqualTo(1);
        assertThat(manager.blockedNanos(LockManager.KeyRole.DIRECTORY, LockMode.WRITE))
                .isGreaterThanOrEqualTo(Duration.ofMillis(20).toNanos());
        for (LockManager.KeyRole role : LockManager.KeyRole.values()) {
            for (LockMode mode : LockMode.values()) {
                if (role != LockManager.KeyRole.DIRECTORY || mode != LockMode.WRITE) {
                    assertThat(manager.blockedWaits(role, mode)).as("%s %s", role, mode).isZero();
                }
            }
        }
        // a set granted at once waits for nothing
        manager.acquire(List.of(write("shared/s3")), SHORT).close();
        assertThat(manager.blockedWaits(LockManager.KeyRole.NAME, LockMode.WRITE)).isZero();
    }

    @Test
    void emptyRequestHoldsNothing() throws Exception {
        LockManager manager = new LockManager();
        try (LockSet set = manager.acquire(List.of(), SHORT)) {
            assertThat(set.keys()).isEmpty();
            assertThat(set.locksHeld()).isZero();
            assertThat(manager.keysInUse()).isZero();
        }
    }

    @Test
    void badArgumentsAreRejected() {
        LockManager manager = new LockManager();
        assertThatThrownBy(() -> manager.acquire(List.of(read("a")), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void hugeTimeoutIsAccepted() throws Exception {
        LockManager manager = new LockManager();
        try (LockSet set = manager.acquire(List.of(read("a")), Duration.ofSeconds(Long.MAX_VALUE))) {
            assertThat(set.isOpen()).isTrue();
        }
    }

    /**
     * Writers first: six threads read one key in overlapping turns of 15 ms, so that it is never free; a writer
     * still gets it within a fraction of its timeout (the readers holding it finish, the next ones wait), and
     * the readers go on after it. Without the preference the writer waits for a moment when no reader holds
     * the key, which does not come, and times out.
     */
    @Test
    void aWriterGetsTheKeyWhileReadersKeepArriving() throws Exception {
        LockManager manager = new LockManager();
        int readers = 6;
        ExecutorService pool = Executors.newFixedThreadPool(readers);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicInteger holding = new java.util.concurrent.atomic.AtomicInteger();
        List<Future<?>> running = new ArrayList<>();
        try {
            for (int i = 0; i < readers; i++) {
                long offset = 3L * i;
                running.add(pool.submit(() -> {
                    Thread.sleep(offset);
                    while (!stop.get()) {
                        try (LockSet set = manager.acquire(List.of(read("d/f")), LONG)) {
                            holding.incrementAndGet();
                            reads.incrementAndGet();
                            Thread.sleep(15);
                            holding.decrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            Thread.sleep(200);
            assertThat(reads.get()).as("reads before the writer").isPositive();
            long start = System.nanoTime();
            try (LockSet written = manager.acquire(List.of(write("d/f")), Duration.ofSeconds(5))) {
                long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertThat(waited).as("milliseconds the writer waited").isLessThan(2500);
                assertThat(holding.get()).as("readers holding the key while it is written").isZero();
                long readsThen = reads.get();
                Thread.sleep(50);
                assertThat(reads.get()).as("no read while it is written").isEqualTo(readsThen);
            }
            long readsAfter = reads.get();
            Thread.sleep(100);
            assertThat(reads.get()).as("the readers go on after the writer").isGreaterThan(readsAfter);
        } finally {
            stop.set(true);
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        for (Future<?> reader : running) {
            reader.get(); // no reader failed
        }
        assertFree(manager, path("d/f"));
    }

    /**
     * The other way round: four threads write one key in turns of 10 ms, each asking again as soon as it let
     * go, so that a writer always waits; a reader still gets the key within a fraction of its timeout, because
     * the next writer gives way to a reader that arrived before it.
     */
    @Test
    void aReaderGetsTheKeyWhileWritersKeepArriving() throws Exception {
        LockManager manager = new LockManager();
        int writers = 4;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicLong writes = new java.util.concurrent.atomic.AtomicLong();
        List<Future<?>> running = new ArrayList<>();
        try {
            for (int i = 0; i < writers; i++) {
                running.add(pool.submit(() -> {
                    while (!stop.get()) {
                        try (LockSet set = manager.acquire(List.of(write("d/f")), LONG)) {
                            writes.incrementAndGet();
                            Thread.sleep(10);
                        }
                    }
                    return null;
                }));
            }
            Thread.sleep(200);
            assertThat(writes.get()).as("writes before the reader").isPositive();
            long start = System.nanoTime();
            try (LockSet read = manager.acquire(List.of(read("d/f")), Duration.ofSeconds(5))) {
                long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertThat(waited).as("milliseconds the reader waited").isLessThan(2500);
            }
            long writesAfter = writes.get();
            Thread.sleep(100);
            assertThat(writes.get()).as("the writers go on after the reader").isGreaterThan(writesAfter);
        } finally {
            stop.set(true);
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        for (Future<?> writer : running) {
            writer.get();
        }
        assertFree(manager, path("d/f"));
    }
}
