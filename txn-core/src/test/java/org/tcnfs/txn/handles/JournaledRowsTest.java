package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.vfs.FileType;

/** Rows of plain {@code sync} compounds made durable by the {@link RowJournal} ({@link TxnBuffer#commitJournaled}). */
class JournaledRowsTest extends HandleTableTestBase {
    /** Long enough that the background thread never runs during a test unless the test flushes. */
    private static final Duration DELAY = Duration.ofHours(1);

    /** Where the copies a power cut would leave go (deleted after each test, as the state directory is). */
    @TempDir
    Path cuts;

    private long journalBytes = HandleTable.DEFAULT_ROW_JOURNAL_BYTES;

    @Override
    @BeforeEach
    protected void openTable() {
        table = HandleTable.builder(state).lateDelay(DELAY).rowJournalBytes(journalBytes).open();
    }

    /** What a plain compound on a sync export does: its changes in a plain buffer, then {@code commitJournaled}. */
    private <T> T syncCompound(Function<HandleBatch, T> work) {
        TxnBuffer buffer = table.plainBuffer();
        T result;
        try (HandleTable.Binding binding = table.bind(buffer); HandleBatch batch = table.write()) {
            result = work.apply(batch);
            batch.commit();
        }
        buffer.commitJournaled();
        return result;
    }

    private Nfh create(Nfh parent, String name, long ino) {
        return syncCompound(batch -> batch.register(parent, name, FileType.REGULAR, 1, ino, 0));
    }

    /**
     * The state directory as a power cut right now would leave it: a copy of the table's files taken while the
     * table is open (LMDB's file holds its last commit; the journal what was flushed and more).
     */
    private Path cutCopy() throws IOException {
        Path copy = Files.createTempDirectory(cuts, "cut");
        Path handles = Files.createDirectories(copy.resolve("handles"));
        try (var files = Files.list(table.directory())) {
            for (Path f : files.toList()) {
                if (!f.getFileName().toString().equals("lock.mdb")) {
                    Files.copy(f, handles.resolve(f.getFileName()));
                }
            }
        }
        return copy;
    }

    @Test
    void aCreateIsDurableWithOneJournalFlushAndNoLmdbCommit() {
        Nfh root = root();
        long commits = table.commitCount();
        long lmdbFlushes = table.flushCount();
        Nfh file = create(root, "f", 11);

        assertThat(table.commitCount()).isEqualTo(commits);
        assertThat(table.flushCount()).isEqualTo(lmdbFlushes);
        assertThat(table.journalRecords()).isEqualTo(1);
        assertThat(table.journalFlushes()).isEqualTo(1);
        assertThat(table.child(root, "f")).contains(file);
        assertThat(table.uncommittedPendingRows()).isPositive();
    }

    @Test
    void journaledRowsMissingFromLmdbAreReplayedWhenTheTableOpensAfterACut() throws IOException {
        Nfh root = root();
        Nfh dir = syncCompound(batch -> batch.register(root, "d", FileType.DIRECTORY, 1, 10, 0));
        Nfh file = create(dir, "f", 11);
        syncCompound(batch -> batch.rename(dir, "f", root, "g"));
        Path cut = cutCopy();

        try (HandleTable after = HandleTable.builder(cut).lateDelay(DELAY).open()) {
            assertThat(after.child(root, "d")).contains(dir);
            assertThat(after.child(root, "g")).contains(file);
            assertThat(after.child(dir, "f")).isEmpty();
            assertThat(after.path(file)).contains(List.of("g"));
            assertThat(after.byInode("data", 11)).contains(file);
            // and again after a second restart: replayed once, durably, with the applied number
            assertThat(after.uncommittedPendingRows()).isZero();
        }
        try (HandleTable again = HandleTable.builder(cut).lateDelay(DELAY).open()) {
            assertThat(again.child(root, "g")).contains(file);
            assertThat(again.commitCount()).isEqualTo(1); // the journal's start, nothing left to replay
        }
    }

    @Test
    void rowsAppliedByALaterLmdbCommitAreNotReplayedOverNewerRows() throws IOException {
        Nfh root = root();
        Nfh file = create(root, "f", 11);
        // a durable commit (as a transaction's) carries the pending rows and then changes the same name
        table.commitDurably(batch -> batch.unlink(root, "f"));
        Path cut = cutCopy();
        try (HandleTable after = HandleTable.builder(cut).lateDelay(DELAY).open()) {
            assertThat(after.child(root, "f")).isEmpty();
            assertThat(after.node(file)).isEmpty();
        }
    }

    @Test
    void theBackgroundFlushAppliesTheRowsAndLetsTheJournalStartAgainAtItsBeginning() {
        Nfh root = root();
        create(root, "a", 11);
        create(root, "b", 12);
        assertThat(table.journal().offset()).isPositive();
        table.late().flush();
        assertThat(table.uncommittedPendingRows()).isZero();
        assertThat(table.journal().offset()).isZero();
        Nfh c = create(root, "c", 13);
        assertThat(table.child(root, "c")).contains(c);
    }

    @Test
    void aFullJournalCommitsThePendingRowsFirstAndNeverGrows() throws IOException {
        table.close();
        journalBytes = 4096;
        openTable();
        Nfh root = root();
        for (int i = 0; i < 200; i++) {
            create(root, "file" + i, 100 + i);
        }
        assertThat(Files.size(table.directory().resolve(HandleTable.ROW_JOURNAL_FILE))).isEqualTo(4096);
        assertThat(table.journalRecords()).isEqualTo(200);
        Path cut = cutCopy();
        try (HandleTable after = HandleTable.builder(cut).lateDelay(DELAY).open()) {
            for (int i = 0; i < 200; i++) {
                assertThat(after.child(root, "file" + i)).as("file" + i).isPresent();
            }
        }
    }

    /**
     * A reader that finds one row of a compound finds all of them, also while the compound's rows are being added and
     * while flushes commit them: a new file's name, node and inode rows, each read on its own (as a compound's buffer
     * reads the committed table, a row at a time), never show one without the others.
     */
    @Test
    void aReaderThatFindsOneRowOfACompoundFindsTheOthersToo() throws Exception {
        Nfh root = root();
        int files = 3000;
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        List<String> torn = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        List<Thread> readers = new java.util.ArrayList<>();
        for (int r = 0; r < 2; r++) {
            Thread t = new Thread(() -> {
                while (!done.get()) {
                    for (int i = 0; i < files && !done.get(); i++) {
                        java.util.Optional<Nfh> byName = table.child(root, "f" + i);
                        java.util.Optional<Nfh> byInode = table.byInode("data", 100 + i);
                        if (byName.isPresent() && table.node(byName.get()).isEmpty()
                                || byInode.isPresent() && table.node(byInode.get()).isEmpty()) {
                            torn.add("f" + i);
                        }
                    }
                }
            });
            t.start();
            readers.add(t);
        }
        try {
            for (int i = 0; i < files; i++) {
                create(root, "f" + i, 100 + i);
                if (i % 100 == 99) {
                    table.late().flush();
                }
            }
        } finally {
            done.set(true);
            for (Thread t : readers) {
                t.join();
            }
        }
        assertThat(torn).as("a row found without the node of its compound").isEmpty();
    }

    @Test
    void withTheJournalOffACreateCommitsDurablyToLmdbAsBefore() {
        table.close();
        journalBytes = 0;
        openTable();
        Nfh root = root();
        long commits = table.commitCount();
        create(root, "f", 11);
        assertThat(table.commitCount()).isEqualTo(commits + 1);
        assertThat(table.journalRecords()).isZero();
        assertThat(table.uncommittedPendingRows()).isZero();
    }
    @Test
    void aJournaledSideTablesRowIsDurableWithOneJournalFlushAndVisibleToEveryReader() {
        SideTable records = table.sideTable("records");
        table.journalSideTable(records);
        long commits = table.commitCount();
        long requests = table.durableCommitRequests();

        table.commitJournaled(batch -> batch.put(records, key(7), new byte[] {1, 2}));

        assertThat(table.commitCount()).isEqualTo(commits);
        assertThat(table.durableCommitRequests()).isEqualTo(requests);
        assertThat(table.journalFlushes()).isEqualTo(1);
        assertThat(table.journaledSideRows("records")).isEqualTo(1);
        try (HandleSnapshot snapshot = table.read()) {
            assertThat(snapshot.get(records, key(7))).hasValueSatisfying(v -> assertThat(v).containsExactly(1, 2));
            java.util.Map<Long, byte[]> seen = new java.util.HashMap<>();
            snapshot.forEach(records, (k, v) -> seen.put(java.nio.ByteBuffer.wrap(k).getLong(), v));
            assertThat(seen).containsOnlyKeys(7L);
        }
    }

    @Test
    void aBuffersRowsAndItsSideTableDeletionAreOneJournalRecordReplayedTogetherAfterACut() throws IOException {
        SideTable records = table.sideTable("records");
        table.journalSideTable(records);
        Nfh root = root();
        table.commitJournaled(batch -> batch.put(records, key(7), new byte[] {1}));
        table.commitJournaled(batch -> batch.put(records, key(8), new byte[] {2}));
        TxnBuffer buffer = table.buffer();
        Nfh file;
        try (HandleTable.Binding binding = table.bind(buffer); HandleBatch batch = table.write()) {
            file = batch.register(root, "f", FileType.REGULAR, 1, 11, 0);
            batch.commit();
        }
        long records0 = table.journalRecords();
        buffer.commitJournaled(batch -> batch.delete(records, key(7)));
        assertThat(table.journalRecords()).isEqualTo(records0 + 1);
        Path cut = cutCopy();

        try (HandleTable after = HandleTable.builder(cut).lateDelay(DELAY).open()) {
            SideTable replayed = after.sideTable("records");
            try (HandleSnapshot snapshot = after.read()) {
                assertThat(snapshot.get(replayed, key(7))).isEmpty();
                assertThat(snapshot.get(replayed, key(8))).isPresent();
            }
            assertThat(after.child(root, "f")).contains(file);
            assertThat(after.replayedJournalRows()).containsEntry("records", 3L);
        }
    }

    @Test
    void aSideTableThatIsNotJournaledCommitsDurablyToLmdb() {
        SideTable other = table.sideTable("other");
        long commits = table.commitCount();
        table.commitJournaled(batch -> batch.put(other, key(1), new byte[] {1}));
        assertThat(table.commitCount()).isEqualTo(commits + 1);
        assertThat(table.journalRecords()).isZero();
    }

    @Test
    void withTheJournalOffAJournaledSideTablesRowCommitsDurablyToLmdb() {
        table.close();
        journalBytes = 0;
        openTable();
        SideTable records = table.sideTable("records");
        table.journalSideTable(records);
        long commits = table.commitCount();
        table.commitJournaled(batch -> batch.put(records, key(1), new byte[] {1}));
        assertThat(table.commitCount()).isEqualTo(commits + 1);
        assertThat(table.journalRecords()).isZero();
        try (HandleSnapshot snapshot = table.read()) {
            assertThat(snapshot.get(records, key(1))).isPresent();
        }
    }

    @Test
    void aTransactionsRowsCommitDurablyToLmdbWhileRowsOfAnAsyncCompoundWaitAndToTheJournalAfterwards() {
        Nfh root = root();
        TxnBuffer async = table.plainBuffer();
        Nfh dir;
        try (HandleTable.Binding binding = table.bind(async); HandleBatch batch = table.write()) {
            dir = batch.register(root, "d", FileType.DIRECTORY, 1, 10, 0);
            batch.commit();
        }
        async.commitPending(); // an async compound's mkdir: pending, a crash may lose it
        long commits = table.commitCount();
        long records = table.journalRecords();

        Nfh first = transaction(dir, "f", 11);
        assertThat(table.commitCount()).as("a durable LMDB commit that carries the async rows too")
                .isEqualTo(commits + 1);
        assertThat(table.journalRecords()).isEqualTo(records);
        assertThat(table.uncommittedPendingRows()).isZero();

        Nfh second = transaction(dir, "g", 12);
        assertThat(table.commitCount()).isEqualTo(commits + 1);
        assertThat(table.journalRecords()).as("nothing a crash may lose is visible any more").isEqualTo(records + 1);
        assertThat(table.child(dir, "f")).contains(first);
        assertThat(table.child(dir, "g")).contains(second);
    }

    /** A transaction's create of {@code name} in {@code parent}, committed at its commit point. */
    private Nfh transaction(Nfh parent, String name, long ino) {
        TxnBuffer buffer = table.buffer();
        Nfh file;
        try (HandleTable.Binding binding = table.bind(buffer); HandleBatch batch = table.write()) {
            file = batch.register(parent, name, FileType.REGULAR, 1, ino, 0);
            batch.commit();
        }
        buffer.commitJournaled(batch -> { });
        return file;
    }

    private static byte[] key(long id) {
        return java.nio.ByteBuffer.allocate(Long.BYTES).putLong(id).array();
    }
}
