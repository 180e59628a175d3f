package org.tcnfs.txn.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link LockSet#releaseEarly()} and the commit dependencies it leaves ({@link PendingDurability}). */
@Timeout(30)
class EarlyLockReleaseTest {
    private static final Duration LONG = Duration.ofSeconds(10);
    private final LockManager manager = new LockManager();
    private final ExecutorService other = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() throws Exception {
        other.shutdownNow();
        assertThat(other.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private static LockRequest write(String relative) {
        return LockRequest.write(LockKey.parse("e", relative));
    }

    private static LockRequest read(String relative) {
        return LockRequest.read(LockKey.parse("e", relative));
    }

    /** Takes and releases early on the other thread (a set is released by its own thread). */
    private PendingDurability releasedEarlyOnOther(LockRequest... requests) throws Exception {
        return other.submit(() -> manager.acquire(List.of(requests), LONG).releaseEarly()).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aKeyReleasedEarlyIsFreeAtOnceButItsNextHolderDependsOnIt() throws Exception {
        PendingDurability first = releasedEarlyOnOther(write("d/f"));

        try (LockSet next = manager.acquire(List.of(write("d/f")), Duration.ZERO)) {
            assertThat(next.dependencies()).containsExactly(first);
        }
        try (LockSet reader = manager.acquire(List.of(read("d/f")), Duration.ZERO)) {
            assertThat(reader.dependencies()).containsExactly(first);
        }
        assertThat(manager.earlyReleases()).isEqualTo(1);
        assertThat(manager.keysInUse()).isZero();
    }

    @Test
    void aDependentWaitsUntilTheEarlierChangesAreDurable() throws Exception {
        PendingDurability first = releasedEarlyOnOther(write("d/f"));
        try (LockSet next = manager.acquire(List.of(read("d/f")), Duration.ZERO)) {
            CompletableFuture<Void> waited = CompletableFuture.runAsync(() -> {
                try {
                    next.awaitDependencies();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            Thread.sleep(100);
            assertThat(waited).isNotDone();
            first.complete(null);
            waited.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aDependentOfChangesThatCouldNotBeMadeDurableFails() throws Exception {
        PendingDurability first = releasedEarlyOnOther(write("d/f"));
        try (LockSet next = manager.acquire(List.of(write("d/f")), Duration.ZERO)) {
            first.complete(new IOException("EIO"));
            assertThatThrownBy(next::awaitDependencies).isInstanceOf(IOException.class).hasMessageContaining("EIO");
        }
    }

    @Test
    void onlyKeysHeldForWritingAndTheirDescendantsReadersDependOnIt() throws Exception {
        // the file was written, its directory and the export root only read
        PendingDurability first = releasedEarlyOnOther(write("d/f"));
        try (LockSet sibling = manager.acquire(List.of(write("d/g")), Duration.ZERO)) {
            assertThat(sibling.dependencies()).isEmpty();
        }
        // a directory changed (a name created in it): whatever works beneath it depends on it
        PendingDurability creator = releasedEarlyOnOther(write("e2"), write("e2/new"));
        try (LockSet beneath = manager.acquire(List.of(write("e2/other")), Duration.ZERO)) {
            assertThat(beneath.dependencies()).containsExactly(creator);
        }
        first.complete(null);
        creator.complete(null);
    }

    @Test
    void aWholeExportLockDependsOnEveryCompoundStillFlushing() throws Exception {
        PendingDurability a = releasedEarlyOnOther(write("a/f"));
        PendingDurability b = releasedEarlyOnOther(write("b/g"));
        try (LockSet whole = manager.acquire(List.of(LockRequest.write(LockKey.root("e"))), Duration.ZERO)) {
            assertThat(whole.dependencies()).containsExactlyInAnyOrder(a, b);
        }
        a.complete(null);
        try (LockSet whole = manager.acquire(List.of(LockRequest.write(LockKey.root("e"))), Duration.ZERO)) {
            assertThat(whole.dependencies()).containsExactly(b);
        }
        b.complete(null);
        assertThat(manager.flushingNow()).isZero();
    }

    @Test
    void aCompletedCompoundLeavesNoDependencyAndNothingInTheManager() throws Exception {
        PendingDurability first = releasedEarlyOnOther(write("d/f"));
        first.complete(null);
        try (LockSet next = manager.acquire(List.of(write("d/f")), Duration.ZERO)) {
            assertThat(next.dependencies()).isEmpty();
        }
        assertThat(manager.flushingNow()).isZero();
        assertThat(manager.keysInUse()).isZero();
    }

    @Test
    void noQuietReadStartsUntilACompoundReleasedEarlyIsDurable() throws Exception {
        PendingDurability first = releasedEarlyOnOther(write("d/f"));
        assertThat(manager.enterQuietRead()).as("a quiet read would see the unflushed change without depending on it")
                .isNull();
        first.complete(null);
        LockSet quiet = manager.enterQuietRead();
        assertThat(quiet).isNotNull();
        quiet.close();
    }

    @Test
    void theLatestWriterOfAKeyIsTheDependencyAndItCompletesOnlyAfterItsOwn() throws Exception {
        PendingDurability first = releasedEarlyOnOther(write("d/f"));
        Future<LockSet> second = other.submit(() -> manager.acquire(List.of(write("d/f")), LONG));
        LockSet secondSet = second.get(10, TimeUnit.SECONDS);
        assertThat(secondSet.dependencies()).containsExactly(first);
        PendingDurability secondPending = other.submit(secondSet::releaseEarly).get(10, TimeUnit.SECONDS);
        try (LockSet third = manager.acquire(List.of(read("d/f")), Duration.ZERO)) {
            // the third follows the chain through the second, which awaits the first before it completes
            assertThat(third.dependencies()).containsExactly(secondPending);
        }
        first.complete(null);
        secondPending.complete(null);
    }

    @Test
    void aClosedSetCannotReleaseEarly() throws Exception {
        LockSet set = manager.acquire(List.of(write("d/f")), LONG);
        set.close();
        assertThatThrownBy(set::releaseEarly).isInstanceOf(IllegalStateException.class);
    }
}
