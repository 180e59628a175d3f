package org.tcnfs.txn.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Locks of transactions that span compounds ({@link LockManager#acquireFor}): owned by the transaction, not a
 * thread; wait-die on the ticket between such transactions; single compounds never wait for one while they hold
 * a key (docs/protocol.md, "Locks and deadlocks").
 */
@Timeout(30)
class WaitDieTest {
    private static final Duration LONG = Duration.ofSeconds(10);
    private final ExecutorService other = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() throws InterruptedException {
        other.shutdownNow();
        assertThat(other.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private static LockRequest write(String relative) {
        return LockRequest.write(LockKey.parse("e", relative));
    }

    private static LockRequest read(String relative) {
        return LockRequest.read(LockKey.parse("e", relative));
    }

    @Test
    void aYoungerTransactionDiesInsteadOfWaitingForAnOlderOne() throws Exception {
        LockManager manager = new LockManager();
        LockOwner older = LockOwner.transaction(1, "older");
        LockOwner younger = LockOwner.transaction(2, "younger");
        LockSet a = manager.acquireFor(older, List.of(write("a")), LONG);
        LockSet b = manager.acquireFor(younger, List.of(write("b")), LONG);

        long start = System.nanoTime();
        assertThatThrownBy(() -> manager.acquireFor(younger, List.of(write("a")), LONG))
                .isInstanceOf(WaitDieException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
        assertThat(manager.waitDies()).isEqualTo(1);

        // the older one waits for b until the younger one lets go, then gets it
        Future<LockSet> waiting = other.submit(() -> manager.acquireFor(older, List.of(write("b")), LONG));
        Thread.sleep(100);
        assertThat(waiting.isDone()).isFalse();
        b.close();
        LockSet gotB = waiting.get(10, TimeUnit.SECONDS);
        assertThat(gotB.holds(LockKey.parse("e", "b"), LockMode.WRITE)).isTrue();
        // sets of a transaction close on any thread
        gotB.close();
        a.close();
        assertThat(manager.keysInUse()).isZero();
    }

    @Test
    void aCompoundThatHoldsAKeyDiesRatherThanWaitForATransactionAndHoldsNothingAfterwards() throws Exception {
        LockManager manager = new LockManager();
        LockOwner txn = LockOwner.transaction(1, "txn");
        LockSet held = manager.acquireFor(txn, List.of(write("b")), LONG);

        assertThatThrownBy(() -> manager.acquire(List.of(write("a"), write("b")), LONG))
                .isInstanceOf(WaitDieException.class);
        assertThat(manager.keysInUse()).as("only the transaction's keys").isEqualTo(2);
        try (LockSet a = manager.acquire(List.of(write("a")), Duration.ZERO)) {
            assertThat(a.isOpen()).isTrue();
        }
        held.close();
        assertThat(manager.keysInUse()).isZero();
    }

    @Test
    void aCompoundThatHoldsNothingWaitsForATransactionUntilItEnds() throws Exception {
        LockManager manager = new LockManager();
        LockOwner txn = LockOwner.transaction(1, "txn");
        LockSet held = manager.acquireFor(txn, List.of(read("d/x")), LONG);

        // WRITE of the root "e" conflicts with the transaction's READ of it (an ancestor of d/x); it is the first
        // key the compound takes, so it waits
        Future<LockSet> waiting = other.submit(() -> {
            LockSet s = manager.acquire(List.of(LockRequest.write(LockKey.root("e"))), LONG);
            s.close();
            return s;
        });
        Thread.sleep(100);
        assertThat(waiting.isDone()).isFalse();
        held.close();
        assertThat(waiting.get(10, TimeUnit.SECONDS).isOpen()).isFalse();
    }

    @Test
    void aTransactionUpgradesAKeyItAloneReadsAndKeepsItUntilItsLastSetCloses() throws Exception {
        LockManager manager = new LockManager();
        LockOwner txn = LockOwner.transaction(1, "txn");
        LockSet first = manager.acquireFor(txn, List.of(read("a")), LONG);
        LockSet second = manager.acquireFor(txn, List.of(write("a")), Duration.ZERO);

        Future<Boolean> reader = other.submit(() -> {
            try (LockSet s = manager.acquire(List.of(read("a")), Duration.ofMillis(50))) {
                return true;
            } catch (WaitDieException e) {
                return false;
            }
        });
        assertThat(reader.get(10, TimeUnit.SECONDS)).as("a compound got the key the transaction writes").isFalse();
        second.close();
        first.close();
        assertThat(manager.keysInUse()).isZero();
    }
}
