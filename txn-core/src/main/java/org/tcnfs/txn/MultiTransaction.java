package org.tcnfs.txn;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.rpc.SpanningTransactions;
import org.tcnfs.txn.handles.TxnBuffer;
import org.tcnfs.txn.lock.LockOwner;
import org.tcnfs.txn.lock.LockSet;

/**
 * One transaction that spans compounds (docs/protocol.md): the state it keeps from TXN_BEGIN to TXN_COMMIT or
 * its abort. Each of its compounds is prepared like a transactional compound of its own ({@link TransactionSteps}:
 * its own record id, backups and recovery record, made durable before it changes anything) and adds its locks
 * to those the transaction holds ({@link LockOwner}: wait-die on the ticket); all of them share one
 * {@link TxnBuffer}, so a later compound sees the handles an earlier one made and no other compound does.
 * {@link #commit()} fsyncs what every compound touched, then one journaled commit applies the buffer and deletes every
 * compound's record: the commit point. {@link #abort(String)} undoes the compounds in reverse order, each from its
 * record (the code startup recovery runs, which also takes the records in reverse order), then releases the
 * locks.
 *
 * <pre>
 *   OPEN --commit--> COMMITTED
 *     \--abort----> ABORTED (or UNDO_FAILED: records stay for recovery, WRITE keys fenced)
 * </pre>
 *
 * <p><b>Threading.</b> Its compounds run on whatever request threads serve them, one at a time: every use
 * happens under {@link #enter()} / {@link #exit()} (a second concurrent call is refused). The reaper thread
 * aborts it under the same guard.
 */
final class MultiTransaction {
    private static final Logger LOG = LoggerFactory.getLogger(MultiTransaction.class);

    /** Where it stands. */
    enum State { OPEN, COMMITTED, ABORTED, UNDO_FAILED }

    private final TransactionServices services;
    private final String name;
    private final byte[] id;
    private final LockOwner owner;
    private final SpanningTransactions.Connection connection;
    private final ReentrantLock busy = new ReentrantLock();
    private final List<TransactionSteps> compounds = new ArrayList<>();
    private final List<LockSet> locks = new ArrayList<>();
    private TxnBuffer buffer;
    private long bytes;
    /** Operations of its compounds counted against {@link SpanningLimits#maxHeldOps()}; 0 once given back. */
    private long heldOps;
    private volatile long lastUsedNanos = System.nanoTime();
    private volatile State state = State.OPEN;

    MultiTransaction(TransactionServices services, byte[] id, String name, long ticket,
            SpanningTransactions.Connection connection) {
        this.services = Objects.requireNonNull(services, "services");
        this.id = id.clone();
        this.name = Objects.requireNonNull(name, "name");
        this.owner = LockOwner.transaction(ticket, name);
        this.connection = Objects.requireNonNull(connection, "connection");
    }

    String name() {
        return name;
    }

    byte[] id() {
        return id.clone();
    }

    LockOwner owner() {
        return owner;
    }

    long ticket() {
        return owner.ticket();
    }

    State state() {
        return state;
    }

    SpanningTransactions.Connection connection() {
        return connection;
    }

    /** Takes the transaction for one call; false when another call has it. */
    boolean enter() {
        return busy.tryLock();
    }

    /** Takes it, waiting (for the reaper and shutdown). */
    void enterWaiting() {
        busy.lock();
    }

    /** Ends one call. */
    void exit() {
        lastUsedNanos = System.nanoTime();
        busy.unlock();
    }

    /** Nanoseconds since the last call ended (or began). */
    long idleNanos() {
        return System.nanoTime() - lastUsedNanos;
    }

    int compoundCount() {
        return compounds.size();
    }

    /** Request and backup bytes so far. */
    long bytes() {
        return bytes;
    }

    void charge(long more) {
        bytes += more;
    }

    /** Operations of its compounds held against the server-wide budget. */
    synchronized long heldOps() {
        return heldOps;
    }

    synchronized void holdOps(long ops) {
        heldOps += ops;
    }

    /** Gives back what it holds: the operations, once (later calls answer 0). */
    synchronized long takeHeldOps() {
        long h = heldOps;
        heldOps = 0;
        return h;
    }

    /** The buffer all its compounds' handle changes wait in (made on first use). */
    TxnBuffer buffer() {
        if (buffer == null) {
            buffer = services.handles.buffer();
        }
        return buffer;
    }

    /** A compound's locks, held until the end. */
    void addLocks(LockSet set) {
        locks.add(set);
    }

    /** A compound, prepared (or being prepared); undone with the others if the transaction aborts. */
    void addCompound(TransactionSteps steps) {
        compounds.add(steps);
    }

    /**
     * Commits: fsyncs what the compounds touched, then one journal record (one flush of the handle table's row
     * journal; one durable LMDB commit when the journal does not take it) applies the buffer and deletes every
     * record (the commit point), then drops kept victims and queues the backups for deletion. If it fails
     * before the commit point, everything is undone and the failure rethrown.
     */
    void commit() throws IOException {
        if (state != State.OPEN) {
            throw new IllegalStateException("txn " + name + " is " + state);
        }
        try {
            for (TransactionSteps steps : compounds) {
                steps.syncForCommit();
            }
            services.crashPoints.reach("before-commit");
            boolean anyRecord = compounds.stream().anyMatch(TransactionSteps::recorded);
            if (buffer != null && (!buffer.isEmpty() || anyRecord)) {
                buffer.commitJournaled(batch -> {
                    for (TransactionSteps steps : compounds) {
                        if (steps.recorded()) {
                            batch.delete(services.records, TransactionHook.key(steps.id()));
                        }
                    }
                });
            } else if (anyRecord) {
                services.handles.commitJournaled(batch -> {
                    for (TransactionSteps steps : compounds) {
                        if (steps.recorded()) {
                            batch.delete(services.records, TransactionHook.key(steps.id()));
                        }
                    }
                });
            }
        } catch (IOException | RuntimeException e) {
            LOG.error("txn {}: commit failed before the commit point, rolling back its {} compounds: {}", name,
                    compounds.size(), e.toString());
            abort("its commit failed");
            throw e;
        }
        state = State.COMMITTED;
        try {
            services.crashPoints.reach("after-commit");
            for (TransactionSteps steps : compounds) {
                steps.afterCommit();
            }
        } catch (RuntimeException e) {
            LOG.error("txn {}: committed; the work after the commit point failed (backups may stay until recovery's "
                    + "orphan cleanup): {}", name, e.toString(), e);
        } finally {
            release();
        }
        LOG.debug("txn {} committed: {} compounds, {} bytes", name, compounds.size(), bytes);
    }

    /**
     * Rolls every compound back, the last first, then releases the locks; harmless once ended. If an undo fails
     * the transaction is UNDO_FAILED: that compound's and the earlier compounds' records stay for recovery at the
     * next start, and their WRITE keys are fenced.
     */
    void abort(String why) {
        if (state != State.OPEN) {
            return;
        }
        if (compounds.isEmpty()) {
            // nothing to undo: a client may begin and drop empty transactions as fast as it likes
            LOG.debug("txn {}: aborting ({}): no compound to undo", name, why);
        } else {
            LOG.info("txn {}: aborting ({}): undoing {} compounds", name, why, compounds.size());
        }
        if (buffer != null) {
            buffer.discard();
        }
        State outcome = State.ABORTED;
        try {
            for (int i = compounds.size() - 1; i >= 0; i--) {
                TransactionSteps steps = compounds.get(i);
                try {
                    steps.rollback();
                } catch (IOException | RuntimeException e) {
                    outcome = State.UNDO_FAILED;
                    LOG.error("txn {}: undo of compound {} failed; it and the {} before it stay for recovery at the "
                            + "next start: {}", name, i, i, e.toString());
                    for (int j = i; j >= 0; j--) {
                        compounds.get(j).undoFailed(e);
                    }
                    break;
                }
            }
        } finally {
            state = outcome;
            release();
        }
    }

    private void release() {
        for (int i = locks.size() - 1; i >= 0; i--) {
            try {
                locks.get(i).close();
            } catch (RuntimeException e) {
                LOG.error("txn {}: releasing locks failed: {}", name, e.toString(), e);
            }
        }
        locks.clear();
    }

    @Override
    public String toString() {
        return "txn " + name + " " + state + " (" + compounds.size() + " compounds)";
    }
}
