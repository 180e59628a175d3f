package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.vfs.FileType;

/** Pending rows of plain compounds on {@code async} exports ({@link PendingRows}, {@link TxnBuffer#commitPending}). */
class PendingRowsTest extends HandleTableTestBase {
    /** Long enough that the background thread never runs during a test unless the test flushes. */
    private static final Duration DELAY = Duration.ofHours(1);

    private int maxPendingRows = HandleTable.DEFAULT_MAX_PENDING_ROWS;

    @Override
    @BeforeEach
    protected void openTable() {
        table = HandleTable.builder(state).lateDelay(DELAY).maxPendingRows(maxPendingRows).open();
    }

    @Override
    protected void reopen() {
        table.close();
        openTable();
    }

    /** What a plain compound on an async export does: its changes in a plain buffer, then {@code commitPending}. */
    private <T> T asyncCompound(java.util.function.Function<HandleBatch, T> work) {
        TxnBuffer buffer = table.plainBuffer();
        T result;
        try (HandleTable.Binding binding = table.bind(buffer); HandleBatch batch = table.write()) {
            result = work.apply(batch);
            batch.commit();
        }
        buffer.commitPending();
        return result;
    }

    private Nfh createAsync(Nfh parent, String name, long ino) {
        return asyncCompound(batch -> batch.register(parent, name, FileType.REGULAR, 1, ino, 0));
    }

    @Test
    void pendingRowsAreVisibleToEveryReaderWithoutAnyLmdbCommitOrFlush() {
        Nfh root = root();
        long commits = table.commitCount();
        long flushes = table.flushCount();
        Nfh dir = asyncCompound(batch -> batch.register(root, "d", FileType.DIRECTORY, 1, 10, 0));
        Nfh file = createAsync(dir, "f", 11);

        assertThat(table.commitCount()).isEqualTo(commits);
        assertThat(table.flushCount()).isEqualTo(flushes);
        assertThat(table.uncommittedPendingRows()).isEqualTo(6);
        assertThat(table.child(dir, "f")).contains(file);
        assertThat(table.path(file)).contains(List.of("d", "f"));
        assertThat(table.byInode("data", 11)).contains(file);
        // a transaction's buffer reads them too
        TxnBuffer txn = table.buffer();
        try (HandleTable.Binding binding = table.bind(txn); HandleSnapshot snapshot = table.read()) {
            assertThat(snapshot.child(root, "d")).contains(dir);
            assertThat(snapshot.node(file)).isPresent();
            assertThat(snapshot.childNames(dir)).containsExactly("f");
        }
    }

    @Test
    void theFlushCommitsPendingRowsDurablyBeforeItSyncsTheDirectories() {
        Nfh root = root();
        Nfh file = createAsync(root, "f", 11);
        List<Integer> uncommittedAtSync = new ArrayList<>();
        table.late().syncLater("dir", new TxnBuffer.PendingSync() {
            @Override
            public void sync() throws IOException {
                uncommittedAtSync.add(table.uncommittedPendingRows());
            }

            @Override
            public boolean isDirectory() {
                return true;
            }

            @Override
            public void close() {
            }
        });
        long flushes = table.flushCount();
        table.late().flush();
        assertThat(uncommittedAtSync).containsExactly(0);
        assertThat(table.flushCount() - flushes).isEqualTo(2); // one durable commit: pages, meta page
        assertThat(table.uncommittedPendingRows()).isZero();
        assertThat(table.child(root, "f")).contains(file);
    }

    @Test
    void aReaderThatBeganBeforeTheCommitKeepsSeeingTheRowsUntilItEnds() {
        Nfh root = root();
        Nfh file = createAsync(root, "f", 11);
        try (HandleSnapshot old = table.read()) {
            table.late().flush(); // commits them
            table.late().flush(); // would drop them, but a reader whose LMDB snapshot lacks them is open
            table.late().flush();
            assertThat(table.pendingRows()).isEqualTo(3);
            assertThat(old.child(root, "f")).contains(file);
            assertThat(old.node(file)).isPresent();
        }
        table.late().flush();
        table.late().flush();
        assertThat(table.pendingRows()).isZero();
        assertThat(table.child(root, "f")).contains(file);
    }

    @Test
    void aLaterLmdbCommitOfTheSameRowsIsNotMaskedByThePendingOnes() {
        Nfh root = root();
        Nfh file = createAsync(root, "a", 11);
        try (HandleBatch batch = table.write()) { // a sync compound renames it, durably
            batch.rename(root, "a", root, "b");
            batch.commit();
        }
        assertThat(table.uncommittedPendingRows()).isZero();
        assertThat(table.child(root, "a")).isEmpty();
        assertThat(table.child(root, "b")).contains(file);
        assertThat(table.path(file)).contains(List.of("b"));
        table.late().flush();
        table.late().flush();
        assertThat(table.pendingRows()).isZero();
        assertThat(table.child(root, "b")).contains(file);
        assertThat(table.child(root, "a")).isEmpty();
    }

    @Test
    void anyDurableCommitCarriesThePendingRowsBeforeItsOwn() {
        Nfh root = root();
        Nfh dir = asyncCompound(batch -> batch.register(root, "d", FileType.DIRECTORY, 1, 10, 0));
        Nfh file;
        try (HandleBatch batch = table.write()) { // e.g. a transaction's commit under the new directory
            file = batch.register(dir, "f", FileType.REGULAR, 1, 11, 0);
            batch.commit();
        }
        assertThat(table.uncommittedPendingRows()).isZero();
        assertThat(table.path(file)).contains(List.of("d", "f"));
    }

    @Test
    void aPendingRenameAndRemovalReadAsDoneAndSurviveACleanRestart() {
        Nfh root = root();
        Nfh a = add(root, "a", FileType.REGULAR, 11);
        Nfh gone = add(root, "gone", FileType.REGULAR, 12);
        asyncCompound(batch -> batch.rename(root, "a", root, "b"));
        asyncCompound(batch -> batch.unlink(root, "gone"));
        assertThat(table.child(root, "a")).isEmpty();
        assertThat(table.child(root, "b")).contains(a);
        assertThat(table.child(root, "gone")).isEmpty();
        assertThat(table.node(gone)).isEmpty();
        try (HandleSnapshot snapshot = table.read()) {
            assertThat(snapshot.childNames(root)).containsExactly("b");
        }
        reopen();
        assertThat(table.child(root, "b")).contains(a);
        assertThat(table.child(root, "a")).isEmpty();
        assertThat(table.node(gone)).isEmpty();
    }

    @Test
    void aCompoundWhoseRowsDoNotFitCommitsToLmdbAtOnceWithThoseWaiting() {
        table.close();
        maxPendingRows = 4;
        openTable();
        Nfh root = root();
        Nfh first = createAsync(root, "f1", 11); // 3 rows: kept
        long commits = table.commitCount();
        assertThat(table.uncommittedPendingRows()).isEqualTo(3);
        Nfh second = createAsync(root, "f2", 12); // 3 more: over the bound
        assertThat(table.commitCount()).isEqualTo(commits + 1);
        assertThat(table.uncommittedPendingRows()).isZero();
        assertThat(table.pendingRows()).isLessThanOrEqualTo(4);
        assertThat(table.child(root, "f1")).contains(first);
        assertThat(table.child(root, "f2")).contains(second);
    }

    @Test
    void pendingRowsOffCommitsEachCompoundLazily() {
        table.close();
        maxPendingRows = 0;
        openTable();
        Nfh root = root();
        long commits = table.commitCount();
        Nfh file = createAsync(root, "f", 11);
        assertThat(table.commitCount()).isEqualTo(commits + 1);
        assertThat(table.pendingRows()).isZero();
        assertThat(table.child(root, "f")).contains(file);
    }

    /**
     * Readers running while rows are added, committed by flushes and dropped from memory never miss a row that was
     * visible before they began (the reader epochs, {@link PendingRows#enter}): each checks, in one snapshot, that
     * every file created before it began is found by name and by handle.
     */
    @Test
    void concurrentReadersNeverMissARowWhileFlushesCommitAndDropThem() throws Exception {
        Nfh root = root();
        java.util.concurrent.CopyOnWriteArrayList<Nfh> created = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        List<String> misses = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.atomic.AtomicLong checks = new java.util.concurrent.atomic.AtomicLong();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            long seed = r;
            Thread t = new Thread(() -> {
                java.util.Random random = new java.util.Random(seed);
                while (!done.get()) {
                    List<Nfh> before = List.copyOf(created);
                    if (before.isEmpty()) {
                        continue;
                    }
                    try (HandleSnapshot snapshot = table.read()) {
                        for (int k = 0; k < 8; k++) {
                            int i = random.nextInt(before.size());
                            Nfh h = before.get(i);
                            if (!snapshot.child(root, "f" + i).equals(java.util.Optional.of(h))
                                    || snapshot.node(h).isEmpty()) {
                                misses.add("f" + i);
                            }
                            checks.incrementAndGet();
                        }
                    }
                }
            });
            t.start();
            readers.add(t);
        }
        try {
            for (int i = 0; i < 1500; i++) {
                created.add(createAsync(root, "f" + i, 100 + i));
                if (i % 50 == 49) {
                    table.late().flush();
                }
            }
            table.late().flush();
            table.late().flush();
        } finally {
            done.set(true);
            for (Thread t : readers) {
                t.join();
            }
        }
        assertThat(misses).as("rows missed out of %d checks", checks.get()).isEmpty();
        assertThat(checks.get()).isPositive();
        table.late().flush(); // drops what waited for the readers, starts retiring the last commit's rows
        table.late().flush(); // drops those
        assertThat(table.pendingRows()).isZero();
        assertThat(table.child(root, "f1499")).contains(created.get(1499));
    }
}
