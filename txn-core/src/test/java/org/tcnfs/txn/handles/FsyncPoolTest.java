package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
    void noSyncsIsNothingToDo() throws IOException {
        FsyncPool.runAll(List.of());
    }
}
