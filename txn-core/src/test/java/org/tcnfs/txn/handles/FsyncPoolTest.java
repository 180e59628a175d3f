package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class FsyncPoolTest {

    @Test
    void syncsRunAtTheSameTimeAndAllHaveEndedWhenItReturns() throws IOException {
        int count = 4;
        CountDownLatch allStarted = new CountDownLatch(count);
        ConcurrentLinkedQueue<Integer> ended = new ConcurrentLinkedQueue<>();
        List<FsyncPool.Sync> syncs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int n = i;
            syncs.add(() -> {
                allStarted.countDown();
                try {
                    // only returns in time if every sync is running at once
                    if (!allStarted.await(10, TimeUnit.SECONDS)) {
                        throw new IOException("sync " + n + " ran alone");
                    }
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                ended.add(n);
            });
        }
        FsyncPool.runAll(syncs);
        assertThat(ended).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    @Test
    void aFailureIsThrownAfterEverySyncHasEnded() {
        ConcurrentLinkedQueue<String> ended = new ConcurrentLinkedQueue<>();
        List<FsyncPool.Sync> syncs = List.of(
                () -> ended.add("first"),
                () -> {
                    throw new IOException("disk gone");
                },
                () -> {
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    ended.add("slow");
                });
        assertThatThrownBy(() -> FsyncPool.runAll(syncs)).isInstanceOf(IOException.class).hasMessage("disk gone");
        assertThat(ended).containsExactlyInAnyOrder("first", "slow");
    }

    @Test
    void aSyncNoPoolThreadHasBegunIsRunByTheCallerOnceItsOwnHasEnded() throws Exception {
        CountDownLatch poolBusy = new CountDownLatch(FsyncPool.THREADS);
        CountDownLatch release = new CountDownLatch(1);
        List<FsyncPool.Sync> blocking = new ArrayList<>();
        blocking.add(() -> await(release));
        for (int i = 0; i < FsyncPool.THREADS; i++) {
            blocking.add(() -> {
                poolBusy.countDown();
                await(release);
            });
        }
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> {
            try {
                FsyncPool.runAll(blocking);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            assertThat(poolBusy.await(10, TimeUnit.SECONDS)).as("every pool thread busy").isTrue();
            long takenBack = FsyncPool.takenBack();
            AtomicReference<Thread> caller = new AtomicReference<>();
            AtomicReference<Thread> second = new AtomicReference<>();
            // every pool thread waits for the latch: the second sync ends only if the caller runs it
            CompletableFuture<Void> both = CompletableFuture.runAsync(() -> {
                try {
                    FsyncPool.runAll(List.of(() -> caller.set(Thread.currentThread()),
                            () -> second.set(Thread.currentThread())));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            both.get(10, TimeUnit.SECONDS);
            assertThat(second.get()).isSameAs(caller.get());
            assertThat(FsyncPool.takenBack()).isEqualTo(takenBack + 1);
        } finally {
            release.countDown();
            holder.get(10, TimeUnit.SECONDS);
        }
    }

    private static void await(CountDownLatch latch) throws IOException {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IOException("never released");
            }
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
    }

    @Test
    void syncsOneAfterAnotherAllRunAndTheFirstFailureCarriesTheLaterOnes() {
        List<String> ran = new ArrayList<>();
        FsyncPool.Sync chain = FsyncPool.oneAfterAnother(List.of(
                () -> {
                    ran.add("a");
                    throw new IOException("a failed");
                },
                () -> ran.add("b"),
                () -> {
                    ran.add("c");
                    throw new IOException("c failed");
                }));
        assertThatThrownBy(chain::run).isInstanceOf(IOException.class).hasMessage("a failed")
                .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage)
                        .containsExactly("c failed"));
        assertThat(ran).containsExactly("a", "b", "c");
    }

    @Test
    void noSyncsIsNothingToDo() throws IOException {
        FsyncPool.runAll(List.of());
    }
}
