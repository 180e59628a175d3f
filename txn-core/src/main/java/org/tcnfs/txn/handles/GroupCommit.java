package org.tcnfs.txn.handles;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Group commit of the handle table's durable LMDB commits (leader and followers): compounds that need a
 * durable commit at the same moment share one LMDB write transaction, and so one set of disk flushes
 * ({@code fdatasync} of {@code data.mdb} and the {@code O_DSYNC} write of the meta page).
 *
 * <p>Each caller hands in its work. When no group is committing, the caller becomes the leader: it takes
 * every piece of work handed in until then, its own and its followers', runs them one after another on one
 * batch and commits it. While a group commits, the next one gathers; when the commit ends, its members
 * return at once (without waiting for the next group's commit), and one of the gathered callers leads the
 * next group. So a caller returns only after the commit that carried its work returned (durable under
 * {@link HandleTable.Durability#FULL}), and LMDB's open flags stay as they are: no commit relies on a later
 * one's sync. (Until 2026-11-26 the followers found their work done only once they got the leader's lock,
 * that is after the next group's commit too: two commits' time for one.)
 *
 * <p><b>Failures.</b> When the group's commit (or one piece of work) fails, nothing of the group is
 * committed, and each piece is run again in a commit of its own, so that one failing piece does not fail
 * the others and each caller gets the outcome of its own commit: when the commit itself cannot be made
 * (the disk fails, the map is full), every member of the group fails.
 *
 * <p>Thread-safe.
 */
final class GroupCommit {
    private final Batches batches;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition committed = lock.newCondition();
    /** Work handed in while a group commits: the next group. Guarded by {@code lock}. */
    private List<Entry> gathering = new ArrayList<>();
    /** Whether a group is being committed. Guarded by {@code lock}. */
    private boolean committing;
    private final LongAdder requests = new LongAdder();
    private final LongAdder commits = new LongAdder();

    /** Opens a new LMDB write batch (blocking while another one is open), durable or lazy. */
    @FunctionalInterface
    interface Batches {
        /**
         * @param durable whether the batch's commit is durable when it returns, or {@link HandleTable#commitLazily
         *     lazy} (durable with a later sync)
         */
        HandleBatch open(boolean durable);
    }

    /** @param batches opens a new LMDB write batch (blocking while another one is open) */
    GroupCommit(Batches batches) {
        this.batches = Objects.requireNonNull(batches, "batches");
    }

    /**
     * Runs {@code work} in a group commit, see the class comment and {@link HandleTable#inGroupCommit}; a group
     * commits durably when any of its members asked for it ({@code durable}), lazily otherwise.
     */
    <T> T run(HandleTable.BatchWork<T> work, boolean durable) throws IOException {
        Entry mine = new Entry(work, durable);
        lock.lock();
        try {
            gathering.add(mine);
            requests.increment();
            while (!mine.done) {
                if (committing) {
                    // a follower: wakes when that group's commit ended, returns at once if it carried this work
                    committed.awaitUninterruptibly();
                    continue;
                }
                // the leader: every piece of work handed in until now goes into this group
                List<Entry> group = gathering;
                gathering = new ArrayList<>();
                committing = true;
                lock.unlock();
                try {
                    commitGroup(group);
                } finally {
                    lock.lock();
                    committing = false;
                    committed.signalAll();
                }
            }
        } finally {
            lock.unlock();
        }
        if (mine.failure instanceof IOException e) {
            throw e;
        }
        if (mine.failure instanceof RuntimeException e) {
            throw e;
        }
        if (mine.failure instanceof Error e) {
            throw e;
        }
        @SuppressWarnings("unchecked")
        T result = (T) mine.result;
        return result;
    }

    private void commitGroup(List<Entry> group) {
        boolean durable = group.stream().anyMatch(e -> e.durable);
        try (HandleBatch batch = batches.open(durable)) {
            List<Object> results = new ArrayList<>(group.size());
            for (Entry e : group) {
                results.add(e.work.apply(batch));
            }
            commits.increment();
            batch.commit();
            for (int i = 0; i < group.size(); i++) {
                group.get(i).result = results.get(i);
                group.get(i).done = true;
            }
            return;
        } catch (IOException | RuntimeException | Error groupFailure) {
            if (group.size() == 1) {
                group.get(0).failure = groupFailure;
                group.get(0).done = true;
                return;
            }
        }
        for (Entry e : group) {
            try (HandleBatch batch = batches.open(e.durable)) {
                e.result = e.work.apply(batch);
                commits.increment();
                batch.commit();
            } catch (IOException | RuntimeException | Error alone) {
                e.failure = alone;
            }
            e.done = true;
        }
    }

    /** Pieces of work handed in since the start (each would have been a durable commit of its own). */
    long requests() {
        return requests.sum();
    }

    /** LMDB commits made (or tried) for them since the start. */
    long commits() {
        return commits.sum();
    }

    /**
     * One thread's work waiting for a group commit; the leader sets its fields before it takes {@code lock} and
     * signals, its caller reads them after it saw {@code done} under {@code lock}.
     */
    private static final class Entry {
        final HandleTable.BatchWork<?> work;
        final boolean durable;
        volatile boolean done;
        Object result;
        Throwable failure;

        Entry(HandleTable.BatchWork<?> work, boolean durable) {
            this.work = work;
            this.durable = durable;
        }
    }
}
