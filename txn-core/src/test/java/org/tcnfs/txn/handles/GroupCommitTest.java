package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lmdbjava.Dbi;

/**
 * {@link GroupCommit} (through {@link HandleTable#commitDurably} on a real LMDB environment, and on batches
 * whose commit the test controls): concurrent callers share commits, each returns only after a commit that
 * carried its own change, and a failed commit reaches every caller it carried.
 */
class GroupCommitTest extends HandleTableTestBase {
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() throws InterruptedException {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void callersWaitingWhileAGroupCommitsShareTheNextCommitAndFindTheirChangesCommitted() throws Exception {
        SideTable side = table.sideTable("group-test");
        int callers = 12;
        CountDownLatch othersQueued = new CountDownLatch(1);
        CountDownLatch firstRunning = new CountDownLatch(1);
        // the first caller's work holds the leader's lock until every other caller has handed in its work
        Future<?> first = threads.submit(() -> {
            table.commitDurably(batch -> {
                batch.put(side, bytes("k0"), bytes("v0"));
                firstRunning.countDown();
                try {
                    othersQueued.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            return null;
        });
        assertThat(firstRunning.await(10, TimeUnit.SECONDS)).isTrue();
        List<Future<?>> others = new ArrayList<>();
        for (int i = 1; i < callers; i++) {
            String key = "k" + i;
            others.add(threads.submit(() -> {
                table.commitDurably(batch -> batch.put(side, bytes(key), bytes("v")));
                // returned: the change is committed (a new read transaction sees it)
                try (HandleSnapshot snapshot = table.read()) {
                    assertThat(snapshot.get(side, bytes(key))).isPresent();
                }
                return null;
            }));
        }
        waitUntil(() -> table.durableCommitRequests() == callers);
        othersQueued.countDown();
        first.get(10, TimeUnit.SECONDS);
        for (Future<?> f : others) {
            f.get(10, TimeUnit.SECONDS);
        }

        assertThat(table.durableCommitRequests()).isEqualTo(callers);
        assertThat(table.durableCommits()).as("the first alone, then the eleven that waited in one commit")
                .isEqualTo(2);
        reopen();
        SideTable reopened = table.sideTable("group-test");
        try (HandleSnapshot snapshot = table.read()) {
            for (int i = 0; i < callers; i++) {
                assertThat(snapshot.get(reopened, bytes("k" + i))).as("k%s", i).isPresent();
            }
        }
    }

    /** Batches over nothing whose commits the test counts and can make fail. */
    private final class ControlledDisk {
        /** Works applied so far; each caller's work gets the next number. */
        final AtomicLong applied = new AtomicLong();
        /** Every work numbered up to this was in a commit that returned. */
        final AtomicLong committedUpTo = new AtomicLong();
        final AtomicInteger commits = new AtomicInteger();
        final AtomicBoolean failing = new AtomicBoolean();

        HandleBatch batch() {
            return new HandleBatch(table, new OverlayStore(new EmptyStore()), new HandleBatch.Ending() {
                @Override
                public void commit(boolean directoriesChanged) {
                    long seen = applied.get();
                    commits.incrementAndGet();
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    if (failing.get()) {
                        throw new HandleTableException("fdatasync failed: EIO");
                    }
                    committedUpTo.accumulateAndGet(seen, Math::max);
                }

                @Override
                public void close(boolean committed) {
                }
            });
        }
    }

    @Test
    void manyThreadsEachReturnOnlyAfterACommitThatCarriedTheirWorkAndShareCommits() throws Exception {
        ControlledDisk disk = new ControlledDisk();
        GroupCommit group = new GroupCommit(durable -> disk.batch());
        int callers = 16;
        int rounds = 50;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<String>>> results = new ArrayList<>();
        for (int c = 0; c < callers; c++) {
            int caller = c;
            results.add(threads.submit(() -> {
                start.await();
                List<String> violations = new ArrayList<>();
                for (int r = 0; r < rounds; r++) {
                    long mine = group.run(batch -> disk.applied.incrementAndGet(), true);
                    if (disk.committedUpTo.get() < mine) {
                        violations.add("caller " + caller + " work " + mine + " returned before its commit");
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
        System.out.println("GroupCommitTest: " + group.commits() + " commits for " + group.requests() + " requests");
        assertThat(group.requests()).isEqualTo((long) callers * rounds);
        assertThat(group.commits()).isEqualTo(disk.commits.get())
                .as("16 threads share commits").isLessThan((int) group.requests() / 2);
    }

    @Test
    void aFailedCommitFailsEveryCallerItCarried() throws Exception {
        ControlledDisk disk = new ControlledDisk();
        GroupCommit group = new GroupCommit(durable -> disk.batch());
        CountDownLatch othersQueued = new CountDownLatch(1);
        CountDownLatch firstRunning = new CountDownLatch(1);
        Future<?> first = threads.submit(() -> group.run(batch -> {
            firstRunning.countDown();
            try {
                othersQueued.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            return null;
        }, true));
        assertThat(firstRunning.await(10, TimeUnit.SECONDS)).isTrue();
        int waiting = 5;
        List<Future<?>> others = new ArrayList<>();
        for (int i = 0; i < waiting; i++) {
            others.add(threads.submit(() -> group.run(batch -> disk.applied.incrementAndGet(), true)));
        }
        waitUntil(() -> group.requests() == 1 + waiting);
        disk.failing.set(true);
        othersQueued.countDown();
        assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS)).hasRootCauseInstanceOf(HandleTableException.class);
        for (Future<?> f : others) {
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).hasRootCauseInstanceOf(HandleTableException.class)
                    .hasRootCauseMessage("fdatasync failed: EIO");
        }
        assertThat(disk.committedUpTo.get()).isZero();

        disk.failing.set(false);
        assertThat((String) group.run(batch -> "after", true)).as("the next commit works again").isEqualTo("after");
    }

    @Test
    void oneFailingWorkInAGroupFailsOnlyItsOwnCaller() throws Exception {
        SideTable side = table.sideTable("group-test");
        CountDownLatch othersQueued = new CountDownLatch(1);
        CountDownLatch firstRunning = new CountDownLatch(1);
        Future<?> first = threads.submit(() -> {
            table.commitDurably(batch -> {
                firstRunning.countDown();
                try {
                    othersQueued.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            return null;
        });
        assertThat(firstRunning.await(10, TimeUnit.SECONDS)).isTrue();
        Future<?> good = threads.submit(() -> {
            table.commitDurably(batch -> batch.put(side, bytes("good"), bytes("v")));
            return null;
        });
        waitUntil(() -> table.durableCommitRequests() == 2);
        Future<?> bad = threads.submit(() -> {
            table.inGroupCommit(batch -> {
                batch.put(side, bytes("bad"), bytes("v"));
                throw new IOException("refused");
            });
            return null;
        });
        waitUntil(() -> table.durableCommitRequests() == 3);
        othersQueued.countDown();
        first.get(10, TimeUnit.SECONDS);
        good.get(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> bad.get(10, TimeUnit.SECONDS)).hasRootCauseMessage("refused");
        try (HandleSnapshot snapshot = table.read()) {
            assertThat(snapshot.get(side, bytes("good"))).isPresent();
            assertThat(snapshot.get(side, bytes("bad"))).isEmpty();
        }
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(condition.getAsBoolean()).isTrue();
    }

    /** A store with no rows. */
    private static final class EmptyStore implements Store {
        @Override
        public byte[] get(Dbi<byte[]> dbi, byte[] key) {
            return null;
        }

        @Override
        public void put(Dbi<byte[]> dbi, byte[] key, byte[] value) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean delete(Dbi<byte[]> dbi, byte[] key) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void scan(Dbi<byte[]> dbi, byte[] prefix, BiConsumer<byte[], byte[]> action) {
        }
    }
}
