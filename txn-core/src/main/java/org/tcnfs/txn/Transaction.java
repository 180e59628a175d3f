package org.tcnfs.txn;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.txn.lock.LockSet;

/**
 * One transactional compound's life as an object with an explicit {@link State}, in the manner of
 * lmdbjava's {@code Txn}: {@link #close()} rolls back unless {@link #commit()} passed the commit point,
 * calling it twice is harmless, and nothing after {@link State#COMMITTED} can roll back.
 *
 * <pre>
 *   PLANNED --locked--> LOCKED --prepared--> PREPARED --running--> RUNNING --commit--> COMMITTED
 *      |                  |                     |                     |
 *      +------------------+---------------------+---------------------+--close/rollback--> ROLLED_BACK
 *                                                                                     \--> UNDO_FAILED
 * </pre>
 *
 * <p>What each step does to the file system and the handle table is the {@link Steps} the caller gives
 * (the transaction hook's, or a fake in unit tests); this class owns only the order, the state and the
 * locks: {@link #commit()} runs {@link Steps#commit()}, whose normal return is the commit point, then
 * {@link Steps#afterCommit()}, whose failures are logged and never undo anything (at worst they leave
 * backups for the cleaner or for recovery's orphan cleanup). A failure before the commit point rolls back
 * ({@link Steps#rollback()}). A failed undo leaves the state {@link State#UNDO_FAILED}, after
 * {@link Steps#undoFailed} had its chance to fence what the transaction touched. The locks given to
 * {@link #locked} are released by {@link #close()}, after the commit or the rollback, never before.
 *
 * <p>Not thread-safe: a transaction lives on its compound's request thread.
 */
public final class Transaction implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Transaction.class);

    /** Where a transaction stands. */
    public enum State {
        /** Planned: the plan exists, nothing is locked or changed. */
        PLANNED,
        /** Its lock keys are held. */
        LOCKED,
        /** Its undo is prepared as far as it can be before the operations run (backups, record). */
        PREPARED,
        /** Its operations run. */
        RUNNING,
        /** The commit point passed: nothing can undo it any more. */
        COMMITTED,
        /** Rolled back: the state before the compound is restored (or nothing had changed). */
        ROLLED_BACK,
        /** The undo failed: the record stays for recovery, and what the transaction touched is fenced. */
        UNDO_FAILED;

        /** Whether the transaction has ended (committed, rolled back, or its undo failed). */
        public boolean ended() {
            return this == COMMITTED || this == ROLLED_BACK || this == UNDO_FAILED;
        }
    }

    /** What the transaction does at each step; supplied by its owner. */
    public interface Steps {
        /**
         * Makes the transaction's effects durable and reaches the commit point; its normal return is the
         * commit point. A failure here rolls the transaction back.
         */
        void commit() throws IOException;

        /**
         * Work after the commit point (dropping kept victims, queueing backups for deletion). Must not undo
         * anything; a failure is logged and the transaction stays committed.
         */
        default void afterCommit() throws IOException {
        }

        /** Undoes everything the transaction did; throws if the undo failed (its record then stays). */
        void rollback() throws IOException;

        /** Called once when the undo failed, before the locks are released (to fence what it touched). */
        default void undoFailed(Exception cause) {
        }
    }

    private static final Set<State> MAY_COMMIT = EnumSet.of(State.LOCKED, State.PREPARED, State.RUNNING);

    private final Supplier<String> name;
    private final Steps steps;
    private State state = State.PLANNED;
    private LockSet locks;

    /**
     * A planned transaction.
     *
     * @param name how the log names it (its id, which may be given only once it is prepared)
     * @param steps what it does at each step
     */
    public Transaction(Supplier<String> name, Steps steps) {
        this.name = Objects.requireNonNull(name, "name");
        this.steps = Objects.requireNonNull(steps, "steps");
    }

    /** Where the transaction stands. */
    public State state() {
        return state;
    }

    /** PLANNED to LOCKED: the transaction now holds {@code locks}, released by {@link #close()}. */
    public void locked(LockSet locks) {
        move(State.PLANNED, State.LOCKED);
        this.locks = Objects.requireNonNull(locks, "locks");
    }

    /** LOCKED to PREPARED: backups and record are durable (or there was nothing to prepare). */
    public void prepared() {
        move(State.LOCKED, State.PREPARED);
    }

    /** PREPARED to RUNNING, before the first operation runs; harmless while RUNNING. */
    public void running() {
        if (state != State.RUNNING) {
            move(State.PREPARED, State.RUNNING);
        }
    }

    /**
     * Commits: {@link Steps#commit()}, then, past the commit point, {@link Steps#afterCommit()}. If the commit
     * fails the transaction is rolled back and the failure rethrown; afterwards the state is ROLLED_BACK or
     * UNDO_FAILED.
     *
     * @throws IllegalStateException if the transaction is not locked, prepared or running
     * @throws IOException the commit's failure (the transaction was rolled back)
     */
    public void commit() throws IOException {
        if (!MAY_COMMIT.contains(state)) {
            throw new IllegalStateException("transaction " + name.get() + " cannot commit in state " + state);
        }
        try {
            steps.commit();
        } catch (IOException | RuntimeException e) {
            LOG.error("txn {}: commit failed before the commit point, rolling back: {}", name.get(), e.toString());
            rollback();
            throw e;
        }
        state = State.COMMITTED;
        try {
            steps.afterCommit();
        } catch (IOException | RuntimeException e) {
            LOG.error("txn {}: committed; the work after the commit point failed (backups may stay until the "
                    + "cleaner or recovery's orphan cleanup removes them): {}", name.get(), e.toString(), e);
        }
    }

    /**
     * Rolls back now, unless the transaction has ended; the locks stay held until {@link #close()}.
     *
     * @return the state afterwards: ROLLED_BACK, UNDO_FAILED, or the end it had already reached
     * @throws IllegalStateException if the transaction committed (nothing after the commit point rolls back)
     */
    public State rollback() {
        if (state == State.COMMITTED) {
            throw new IllegalStateException("transaction " + name.get() + " committed; it cannot roll back");
        }
        if (state.ended()) {
            return state;
        }
        try {
            steps.rollback();
            state = State.ROLLED_BACK;
        } catch (IOException | RuntimeException e) {
            state = State.UNDO_FAILED;
            try {
                steps.undoFailed(e);
            } catch (RuntimeException again) {
                LOG.error("txn {}: fencing after the failed undo failed: {}", name.get(), again.toString(), again);
            }
        }
        return state;
    }

    /**
     * Ends the transaction: rolls it back unless it has ended, then releases its locks. Harmless twice,
     * and never rolls back a committed transaction.
     */
    @Override
    public void close() {
        try {
            if (!state.ended()) {
                rollback();
            }
        } finally {
            LockSet held = locks;
            locks = null;
            if (held != null) {
                held.close();
            }
        }
    }

    private void move(State from, State to) {
        if (state != from) {
            throw new IllegalStateException("transaction " + name.get() + " is " + state + ", not " + from
                    + " (to " + to + ")");
        }
        state = to;
    }

    @Override
    public String toString() {
        return "txn " + name.get() + " " + state;
    }
}
