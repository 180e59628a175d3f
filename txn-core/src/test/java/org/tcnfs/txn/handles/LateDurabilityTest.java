package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.vfs.FileType;

class LateDurabilityTest extends HandleTableTestBase {
    private static final String EXPORT = "data";

    /** Long enough that the background thread never runs during a test unless the test waits for it. */
    private Duration delay = Duration.ofHours(1);

    @Override
    @BeforeEach
    protected void openTable() {
        table = HandleTable.builder(state).lateDelay(delay).open();
    }

    @Override
    protected void reopen() {
        table.close();
        openTable();
    }

    /** A directory sync that counts its runs and closes. */
    private static final class CountingSync implements TxnBuffer.PendingSync {
        final AtomicInteger synced = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        final List<String> order;
        final String name;

        CountingSync(List<String> order, String name) {
            this.order = order;
            this.name = name;
        }

        @Override
        public void sync() throws IOException {
            synced.incrementAndGet();
            synchronized (order) {
                order.add("sync " + name);
            }
        }

        @Override
        public boolean isDirectory() {
            return true;
        }

        @Override
        public void close() {
            closed.incrementAndGet();
        }
    }

    @Test
    void durableCommitFlushesTwiceAndLazyCommitOnce() {
        Nfh root = root();
        long before = table.flushCount();
        add(root, "a", FileType.REGULAR, 10);
        assertThat(table.flushCount() - before).isEqualTo(2);
        before = table.flushCount();
        table.commitLazily(batch -> batch.register(root, "b", FileType.REGULAR, 1, 11, 0));
        assertThat(table.flushCount() - before).isEqualTo(1);
        assertThat(table.hasUnsyncedCommits()).isTrue();
        assertThat(table.child(root, "b")).isPresent();
        table.sync();
        assertThat(table.hasUnsyncedCommits()).isFalse();
    }

    @Test
    void lazyCommitSurvivesACleanCloseAndReopen() {
        Nfh root = root();
        Nfh[] b = new Nfh[1];
        table.commitLazily(batch -> b[0] = batch.register(root, "b", FileType.REGULAR, 1, 11, 0));
        reopen();
        assertThat(table.child(root, "b")).contains(b[0]);
    }

    @Test
    void rowOfARemovedObjectStaysUntilTheFlushAndThenGoes() {
        Nfh root = root();
        Nfh file = add(root, "f", FileType.REGULAR, 10);
        long commits = table.commitCount();
        Optional<Nfh> later = table.unlinkAfterSync(root, "f");
        assertThat(later).contains(file);
        assertThat(table.commitCount()).isEqualTo(commits);
        assertThat(table.child(root, "f")).contains(file);
        assertThat(table.late().pending()).isEqualTo(1);
        table.late().flush();
        assertThat(table.child(root, "f")).isEmpty();
        assertThat(table.node(file)).isEmpty();
        assertThat(table.byInode(EXPORT, 10)).isEmpty();
        assertThat(table.late().pending()).isZero();
    }

    @Test
    void aHardLinkedFileWhoseFirstNameIsRemovedLeadsByItsOtherNameBeforeTheFlush() {
        Nfh root = root();
        Nfh file = add(root, "a", FileType.REGULAR, 10);
        try (HandleBatch batch = table.write()) {
            batch.addLink(file, root, "\u00e9t\u00e9");
            batch.commit();
        }
        assertThat(table.unlinkAfterSync(root, "a")).contains(file);

        try (HandleSnapshot snapshot = table.read()) {
            assertThat(snapshot.path(file)).contains(List.of("\u00e9t\u00e9"));
        }
        table.late().flush();
        try (HandleSnapshot snapshot = table.read()) {
            assertThat(snapshot.path(file)).contains(List.of("\u00e9t\u00e9"));
        }
    }

    @Test
    void queuedRemovalSparesANewObjectThatTookTheName() {
        Nfh root = root();
        add(root, "f", FileType.REGULAR, 10);
        assertThat(table.unlinkAfterSync(root, "f")).isPresent();
        Nfh replacement;
        try (HandleBatch batch = table.write()) {
            batch.unlink(root, "f");
            replacement = batch.register(root, "f", FileType.REGULAR, 1, 12, 0);
            batch.commit();
        }
        table.late().flush();
        assertThat(table.child(root, "f")).contains(replacement);
        assertThat(table.node(replacement)).isPresent();
    }

    @Test
    void backgroundThreadRemovesTheRowWithinItsDelay() throws Exception {
        delay = Duration.ofMillis(200);
        reopen();
        Nfh root = root();
        Nfh file = add(root, "f", FileType.REGULAR, 10);
        assertThat(table.unlinkAfterSync(root, "f")).contains(file);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (table.child(root, "f").isPresent() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(table.child(root, "f")).isEmpty();
    }

    @Test
    void closeDoesTheQueuedWork() {
        Nfh root = root();
        add(root, "f", FileType.REGULAR, 10);
        CountingSync sync = new CountingSync(new ArrayList<>(), "d");
        assertThat(table.late().syncLater("d", sync)).isTrue();
        assertThat(table.unlinkAfterSync(root, "f")).isPresent();
        reopen();
        assertThat(sync.synced.get()).isEqualTo(1);
        assertThat(sync.closed.get()).isEqualTo(1);
        assertThat(table.child(root, "f")).isEmpty();
    }

    @Test
    void transactionsBufferTheirRemovalsAsBefore() {
        Nfh root = root();
        Nfh file = add(root, "f", FileType.REGULAR, 10);
        TxnBuffer buffer = table.buffer();
        try (HandleTable.Binding binding = table.bind(buffer)) {
            assertThat(table.unlinkAfterSync(root, "f")).isEmpty();
        }
        assertThat(table.late().pending()).isZero();
        assertThat(table.child(root, "f")).contains(file);
    }

    @Test
    void aLightTransactionHandsItsRemovalsOverAfterItsCommitInsteadOfCommittingThem() {
        Nfh root = root();
        Nfh file = add(root, "f", FileType.REGULAR, 10);
        TxnBuffer buffer = table.buffer();
        buffer.removeRowsLate();
        try (HandleTable.Binding binding = table.bind(buffer)) {
            assertThat(table.unlinkAfterSync(root, "f")).contains(file);
        }
        assertThat(buffer.isEmpty()).as("nothing for the commit to write").isTrue();
        assertThat(table.late().pending()).as("not before the owner's directory syncs").isZero();
        buffer.forgetRemovedRows();
        assertThat(table.late().pending()).isEqualTo(1);
        table.late().flush();
        assertThat(table.child(root, "f")).isEmpty();
    }

    @Test
    void aRolledBackLightTransactionKeepsTheRowOfWhatItRemoved() {
        Nfh root = root();
        Nfh file = add(root, "f", FileType.REGULAR, 10);
        TxnBuffer buffer = table.buffer();
        buffer.removeRowsLate();
        try (HandleTable.Binding binding = table.bind(buffer)) {
            assertThat(table.unlinkAfterSync(root, "f")).contains(file);
        }
        buffer.discard();
        buffer.forgetRemovedRows();
        assertThat(table.late().pending()).isZero();
        assertThat(table.child(root, "f")).contains(file);
    }

    @Test
    void plainCompoundHandsItsRemovalsOverOnlyAfterItsDirectorySyncs() throws IOException {
        Nfh root = root();
        Nfh file = add(root, "f", FileType.REGULAR, 10);
        List<String> order = new ArrayList<>();
        TxnBuffer buffer = table.plainBuffer();
        try (HandleTable.Binding binding = table.bind(buffer)) {
            table.syncAtCompoundEnd("dir", () -> new CountingSync(order, "dir"));
            assertThat(table.unlinkAfterSync(root, "f")).contains(file);
        }
        assertThat(table.late().pending()).isZero();
        buffer.syncPending();
        assertThat(buffer.isEmpty()).isTrue();
        buffer.forgetRemovedRows();
        assertThat(order).containsExactly("sync dir");
        assertThat(table.late().pending()).isEqualTo(1);
        table.late().flush();
        assertThat(table.child(root, "f")).isEmpty();
    }

    @Test
    void asyncCompoundLeavesItsDirectorySyncsToTheQueueAndSyncsItsFilesNow() throws IOException {
        List<String> order = new ArrayList<>();
        TxnBuffer buffer = table.plainBuffer();
        CountingSync dir = new CountingSync(order, "dir");
        TxnBuffer.PendingSync file = new TxnBuffer.PendingSync() {
            @Override
            public void sync() {
                order.add("sync file");
            }

            @Override
            public void close() {
            }
        };
        try (HandleTable.Binding binding = table.bind(buffer)) {
            table.syncAtCompoundEnd("dir", () -> dir);
            table.syncAtCompoundEnd("file", () -> file);
        }
        buffer.syncPending(true);
        assertThat(order).containsExactly("sync file");
        assertThat(dir.closed.get()).isZero();
        assertThat(table.late().hasDirectorySyncs()).isTrue();
        table.late().syncDirectoriesNow();
        assertThat(order).containsExactly("sync file", "sync dir");
        assertThat(dir.closed.get()).isEqualTo(1);
        assertThat(table.late().hasDirectorySyncs()).isFalse();
    }

    @Test
    void createOnlyBufferCommitsWhileItsDirectoriesSyncAndARenameWaitsForThem() throws Exception {
        Nfh root = root();
        TxnBuffer creates = table.plainBuffer();
        java.util.concurrent.CountDownLatch syncing = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch committed = new java.util.concurrent.CountDownLatch(1);
        TxnBuffer.PendingSync slowDirectory = new TxnBuffer.PendingSync() {
            @Override
            public void sync() throws IOException {
                syncing.countDown();
                try {
                    // the commit runs meanwhile, on the compound's thread
                    assertThat(committed.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }

            @Override
            public void close() {
            }
        };
        try (HandleTable.Binding binding = table.bind(creates)) {
            table.syncAtCompoundEnd("dir", () -> slowDirectory);
            table.inGroupCommit(batch -> batch.register(root, "new", FileType.REGULAR, 1, 20, 0));
        }
        assertThat(creates.mayCommitAlongsideSyncs()).isTrue();
        creates.syncPendingAlongside(() -> {
            creates.commit(batch -> { });
            committed.countDown();
        });
        assertThat(syncing.getCount()).isZero();
        assertThat(table.child(root, "new")).isPresent();

        TxnBuffer renames = table.plainBuffer();
        try (HandleTable.Binding binding = table.bind(renames)) {
            table.commitAfterSyncs();
            table.inGroupCommit(batch -> batch.rename(root, "new", root, "renamed"));
        }
        assertThat(renames.mayCommitAlongsideSyncs()).isFalse();
    }

    @Test
    void theSameDirectoryIsQueuedOnceAndTheQueueIsBounded() {
        List<String> order = new ArrayList<>();
        CountingSync first = new CountingSync(order, "a");
        CountingSync second = new CountingSync(order, "a");
        assertThat(table.late().syncLater("a", first)).isTrue();
        assertThat(table.late().syncLater("a", second)).isTrue();
        assertThat(second.closed.get()).isEqualTo(1);
        for (int i = 1; i < LateDurability.MAX_DIRECTORY_SYNCS; i++) {
            assertThat(table.late().syncLater("d" + i, new CountingSync(order, "d" + i))).isTrue();
        }
        assertThat(table.late().syncLater("one too many", new CountingSync(order, "x"))).isFalse();
        table.late().flush();
        assertThat(first.synced.get()).isEqualTo(1);
        assertThat(order).hasSize(LateDurability.MAX_DIRECTORY_SYNCS);
    }

    /**
     * A plain compound of an {@code async} export that changed a directory whose sync already waits in the queue (not
     * begun) opens nothing of its own: the queued sync covers its change. Once the flush took that sync, the next
     * compound opens and queues one again; a compound of a {@code sync} export (not deferring) always keeps its own.
     */
    @Test
    void aDeferringCompoundJoinsADirectorySyncThatWaitsInTheQueueAndOpensNone() throws IOException {
        List<String> order = new ArrayList<>();
        AtomicInteger opened = new AtomicInteger();
        TxnBuffer.SyncOpener opener = () -> {
            opened.incrementAndGet();
            return new CountingSync(order, "dir");
        };
        TxnBuffer first = table.plainBuffer();
        first.deferringDirectorySyncs();
        try (HandleTable.Binding binding = table.bind(first)) {
            assertThat(table.syncDirectoryAtCompoundEnd("dir", opener)).isTrue();
        }
        first.syncPending(true);
        assertThat(opened.get()).isEqualTo(1);
        assertThat(table.late().holdsDirectorySync("dir")).isTrue();

        TxnBuffer second = table.plainBuffer();
        second.deferringDirectorySyncs();
        try (HandleTable.Binding binding = table.bind(second)) {
            assertThat(table.syncDirectoryAtCompoundEnd("dir", opener)).isTrue();
        }
        assertThat(opened.get()).as("descriptors opened").isEqualTo(1);
        assertThat(second.hasPendingSyncs()).isFalse();
        assertThat(table.queuedDirectorySyncsJoined()).isEqualTo(1);

        TxnBuffer notDeferring = table.plainBuffer();
        try (HandleTable.Binding binding = table.bind(notDeferring)) {
            assertThat(table.syncDirectoryAtCompoundEnd("dir", opener)).isTrue();
        }
        assertThat(opened.get()).as("a sync export's compound keeps its own").isEqualTo(2);
        notDeferring.syncPending();

        table.late().flush();
        assertThat(table.late().holdsDirectorySync("dir")).isFalse();
        TxnBuffer third = table.plainBuffer();
        third.deferringDirectorySyncs();
        try (HandleTable.Binding binding = table.bind(third)) {
            assertThat(table.syncDirectoryAtCompoundEnd("dir", opener)).isTrue();
        }
        assertThat(opened.get()).as("after the flush took it, a new one").isEqualTo(3);
        assertThat(third.hasPendingSyncs()).isTrue();
        third.syncPending(true);
        assertThat(table.late().holdsDirectorySync("dir")).isTrue();
    }

    /**
     * {@link TxnBuffer#keepPending()}: a plain {@code async} compound's rows go to memory, visible at once, with no
     * LMDB commit; the buffer is empty afterwards.
     */
    @Test
    void keepingRowsPendingMakesThemVisibleWithoutACommit() throws IOException {
        Nfh root = root();
        TxnBuffer buffer = table.plainBuffer();
        try (HandleTable.Binding binding = table.bind(buffer)) {
            table.inGroupCommit(batch -> batch.register(root, "kept", FileType.REGULAR, 1, 30, 0));
        }
        long commits = table.commitCount();
        assertThat(buffer.keepPending()).isTrue();
        assertThat(buffer.isEmpty()).isTrue();
        assertThat(table.commitCount()).isEqualTo(commits);
        assertThat(table.child(root, "kept")).isPresent();
    }
}
