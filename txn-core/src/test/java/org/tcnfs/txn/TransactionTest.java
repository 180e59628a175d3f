package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tcnfs.txn.Transaction.State;
import org.tcnfs.txn.lock.LockKey;
import org.tcnfs.txn.lock.LockManager;
import org.tcnfs.txn.lock.LockMode;
import org.tcnfs.txn.lock.LockRequest;
import org.tcnfs.txn.lock.LockSet;

/** The transaction state machine (issue 13, item 3), with steps that record what they were asked to do. */
class TransactionTest {
    private final LockManager manager = new LockManager();
    private final List<String> log = new ArrayList<>();

    /** Steps that log each call and fail where told. */
    private final class Recording implements Transaction.Steps {
        boolean failCommit;
        boolean failAfterCommit;
        boolean failUndo;

        @Override
        public void commit() throws IOException {
            log.add("commit");
            if (failCommit) {
                throw new IOException("injected: commit");
            }
        }

        @Override
        public void afterCommit() throws IOException {
            log.add("after-commit");
            if (failAfterCommit) {
                throw new IOException("injected: after the commit point");
            }
        }

        @Override
        public void rollback() throws IOException {
            log.add("rollback");
            if (failUndo) {
                throw new IOException("injected: undo");
            }
        }

        @Override
        public void undoFailed(Exception cause) {
            log.add("fence");
        }
    }

    private LockSet lock(String name) throws IOException {
        return manager.acquire(List.of(new LockRequest(LockKey.ofPath("e", name), LockMode.WRITE)),
                Duration.ofSeconds(1));
    }

    private Transaction running(Recording steps, LockSet locks) {
        Transaction t = new Transaction(() -> "t", steps);
        t.locked(locks);
        t.prepared();
        t.running();
        return t;
    }

    @Test
    void movesThroughItsStatesInOrder() throws IOException {
        Transaction t = new Transaction(() -> "t", new Recording());
        assertThat(t.state()).isEqualTo(State.PLANNED);
        LockSet locks = lock("a");
        t.locked(locks);
        assertThat(t.state()).isEqualTo(State.LOCKED);
        t.prepared();
        assertThat(t.state()).isEqualTo(State.PREPARED);
        t.running();
        t.running();
        assertThat(t.state()).isEqualTo(State.RUNNING);
        t.commit();
        assertThat(t.state()).isEqualTo(State.COMMITTED);
        assertThat(locks.isOpen()).as("locks are held until close").isTrue();
        t.close();
        assertThat(locks.isOpen()).isFalse();
        assertThat(log).containsExactly("commit", "after-commit");
    }

    @Test
    void stepsOutOfOrderAreRefused() throws IOException {
        Transaction t = new Transaction(() -> "t", new Recording());
        assertThatThrownBy(t::prepared).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(t::running).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(t::commit).isInstanceOf(IllegalStateException.class);
        assertThat(t.state()).isEqualTo(State.PLANNED);
        assertThat(log).isEmpty();
    }

    @Test
    void closeWithoutCommitRollsBackAndReleasesTheLocks() throws IOException {
        LockSet locks = lock("a");
        Transaction t = running(new Recording(), locks);
        t.close();
        assertThat(t.state()).isEqualTo(State.ROLLED_BACK);
        assertThat(locks.isOpen()).isFalse();
        assertThat(log).containsExactly("rollback");
    }

    @Test
    void closeTwiceIsHarmless() throws IOException {
        Transaction t = running(new Recording(), lock("a"));
        t.close();
        t.close();
        assertThat(log).containsExactly("rollback");
        assertThat(t.state()).isEqualTo(State.ROLLED_BACK);
    }

    @Test
    void closeAfterCommitDoesNotRollBack() throws IOException {
        Transaction t = running(new Recording(), lock("a"));
        t.commit();
        t.close();
        t.close();
        assertThat(t.state()).isEqualTo(State.COMMITTED);
        assertThat(log).containsExactly("commit", "after-commit");
    }

    @Test
    void rollbackAfterCommitIsRefused() throws IOException {
        Transaction t = running(new Recording(), lock("a"));
        t.commit();
        assertThatThrownBy(t::rollback).isInstanceOf(IllegalStateException.class);
        assertThat(t.state()).isEqualTo(State.COMMITTED);
        assertThat(log).doesNotContain("rollback");
        t.close();
    }

    @Test
    void failureAfterTheCommitPointIsLoggedAndLeavesTheTransactionCommitted() throws IOException {
        Recording steps = new Recording();
        steps.failAfterCommit = true;
        LockSet locks = lock("a");
        Transaction t = running(steps, locks);
        t.commit();
        assertThat(t.state()).isEqualTo(State.COMMITTED);
        t.close();
        assertThat(t.state()).isEqualTo(State.COMMITTED);
        assertThat(locks.isOpen()).isFalse();
        assertThat(log).containsExactly("commit", "after-commit");
    }

    @Test
    void failureBeforeTheCommitPointRollsBackAndIsRethrown() throws IOException {
        Recording steps = new Recording();
        steps.failCommit = true;
        Transaction t = running(steps, lock("a"));
        assertThatThrownBy(t::commit).isInstanceOf(IOException.class).hasMessageContaining("injected: commit");
        assertThat(t.state()).isEqualTo(State.ROLLED_BACK);
        t.close();
        assertThat(log).containsExactly("commit", "rollback");
    }

    @Test
    void failedUndoFencesBeforeTheLocksAreReleased() throws IOException {
        Recording steps = new Recording();
        steps.failUndo = true;
        LockSet locks = lock("a");
        Transaction t = running(steps, locks);
        assertThat(t.rollback()).isEqualTo(State.UNDO_FAILED);
        assertThat(locks.isOpen()).as("fenced while still locked").isTrue();
        t.close();
        assertThat(locks.isOpen()).isFalse();
        assertThat(log).containsExactly("rollback", "fence");
    }

    @Test
    void failureWhilePreparingRollsBackOnClose() throws IOException {
        LockSet locks = lock("a");
        Transaction t = new Transaction(() -> "t", new Recording());
        t.locked(locks);
        // preparation threw: the owner closes the transaction, still LOCKED
        t.close();
        assertThat(t.state()).isEqualTo(State.ROLLED_BACK);
        assertThat(locks.isOpen()).isFalse();
        assertThat(Set.copyOf(log)).containsExactly("rollback");
    }
}
