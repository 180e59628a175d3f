package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.vfs.FileType;

/**
 * {@link HandleTable#cachedRead}: a read repeated while the table does not change is answered without a snapshot, the
 * first read after any change reads the table again, a thread whose buffer holds rows of its own uses and keeps only
 * answers read from rows its buffer did not change (and reads the others through its buffer), and the cache stays
 * bounded.
 */
class CachedReadTest extends HandleTableTestBase {
    /** Long enough that the background thread never runs during a test. */
    private static final Duration DELAY = Duration.ofHours(1);

    /** A key of this test's reads: the name looked up in the root. */
    private record ChildOf(String name) {
    }

    @Override
    @BeforeEach
    protected void openTable() {
        table = HandleTable.builder(state).lateDelay(DELAY).open();
    }

    /** A key of this test's path reads: the handle whose path is read. */
    private record PathOf(Nfh handle) {
    }

    private Optional<Nfh> child(Nfh root, String name) {
        return table.cachedRead(new ChildOf(name), snapshot -> snapshot.child(root, name));
    }

    private Optional<List<String>> path(Nfh handle) {
        return table.cachedRead(new PathOf(handle), snapshot -> snapshot.path(handle));
    }

    /** Registers {@code name} in {@code parent} through the batch of the buffer this thread is bound to. */
    private Nfh addInBuffer(Nfh parent, String name, FileType type, long ino) {
        try (HandleBatch batch = table.write()) {
            Nfh handle = batch.register(parent, name, type, 1, ino, 0);
            batch.commit();
            return handle;
        }
    }

    @Test
    void aReadRepeatedWhileTheTableDoesNotChangeTakesNoSnapshot() {
        Nfh root = root();
        Nfh file = add(root, "f", FileType.REGULAR, 10);
        assertThat(child(root, "f")).contains(file);
        long snapshots = table.snapshotCount();
        for (int i = 0; i < 3; i++) {
            assertThat(child(root, "f")).contains(file);
            assertThat(child(root, "f")).contains(file);
        }
        assertThat(table.snapshotCount()).isEqualTo(snapshots);
    }

    @Test
    void theFirstReadAfterAChangeReadsTheTableAgain() {
        Nfh root = root();
        assertThat(child(root, "f")).isEmpty();
        Nfh file = add(root, "f", FileType.REGULAR, 10);
        long snapshots = table.snapshotCount();
        assertThat(child(root, "f")).contains(file);
        assertThat(table.snapshotCount()).isEqualTo(snapshots + 1);
        try (HandleBatch batch = table.write()) {
            batch.unlink(root, "f");
            batch.commit();
        }
        assertThat(child(root, "f")).isEmpty();
    }

    @Test
    void aThreadWhoseBufferHoldsRowsOfItsOwnSeesThemAndKeepsNothing() {
        Nfh root = root();
        assertThat(child(root, "mine")).isEmpty();
        TxnBuffer buffer = table.buffer();
        try (HandleTable.Binding binding = table.bind(buffer)) {
            Nfh mine;
            try (HandleBatch batch = table.write()) {
                mine = batch.register(root, "mine", FileType.REGULAR, 1, 20, 0);
                batch.commit();
            }
            assertThat(child(root, "mine")).contains(mine);
        }
        assertThat(child(root, "mine")).as("the buffer is not committed").isEmpty();
        buffer.discard();
    }

    /**
     * Snapshots taken by {@code reads} looks-ups of {@code name} in {@code dir} (each must find {@code expected}) by a
     * thread whose buffer holds a change of its own (a row it adds under another name), the buffer discarded after.
     */
    private long snapshotsOfBufferedReads(Nfh dir, String name, Nfh expected, int reads) {
        TxnBuffer buffer = table.buffer();
        try (HandleTable.Binding binding = table.bind(buffer)) {
            addInBuffer(dir, "mine", FileType.REGULAR, 20);
            long snapshots = table.snapshotCount();
            for (int i = 0; i < reads; i++) {
                assertThat(child(dir, name)).contains(expected);
            }
            return table.snapshotCount() - snapshots;
        } finally {
            buffer.discard();
        }
    }

    @Test
    void aThreadWhoseBufferHoldsAChangeReadsARowItDidNotChangeFromTheCache() {
        Nfh root = root();
        Nfh file = add(root, "f", FileType.REGULAR, 10);
        assertThat(child(root, "f")).as("kept bare: no buffered thread asked yet").contains(file);
        assertThat(snapshotsOfBufferedReads(root, "f", file, 2))
                .as("an answer kept without its rows is read again once, then kept with its rows and used").isEqualTo(1);
        Nfh other = add(root, "g", FileType.REGULAR, 30);
        assertThat(child(root, "g")).as("read by a plain thread, now with its rows").contains(other);
        assertThat(snapshotsOfBufferedReads(root, "g", other, 1)).as("what a plain thread kept serves it").isZero();
    }

    @Test
    void whatAThreadWhoseBufferHoldsAChangeReadsFromCommittedRowsAloneIsKeptForOthers() {
        Nfh root = root();
        Nfh file = add(root, "f", FileType.REGULAR, 10);
        TxnBuffer buffer = table.buffer();
        try (HandleTable.Binding binding = table.bind(buffer)) {
            addInBuffer(root, "mine", FileType.REGULAR, 20);
            assertThat(child(root, "f")).contains(file);
            assertThat(child(root, "mine")).isPresent();
        }
        long snapshots = table.snapshotCount();
        assertThat(child(root, "f")).contains(file);
        assertThat(table.snapshotCount()).as("kept by the bound thread").isEqualTo(snapshots);
        assertThat(child(root, "mine")).as("its own row is not kept").isEmpty();
        buffer.discard();
        assertThat(child(root, "mine")).as("nothing of a discarded buffer").isEmpty();
    }

    @Test
    void aKeptAnswerOfARowTheBufferChangedIsReadThroughTheBuffer() {
        Nfh root = root();
        Nfh file = add(root, "f", FileType.REGULAR, 10);
        assertThat(child(root, "f")).contains(file);
        assertThat(child(root, "g")).isEmpty();
        TxnBuffer buffer = table.buffer();
        try (HandleTable.Binding binding = table.bind(buffer)) {
            Nfh g = addInBuffer(root, "g", FileType.REGULAR, 20);
            try (HandleBatch batch = table.write()) {
                batch.unlink(root, "f");
                batch.commit();
            }
            assertThat(child(root, "g")).contains(g);
            assertThat(child(root, "f")).isEmpty();
        }
        assertThat(child(root, "f")).contains(file);
        assertThat(child(root, "g")).isEmpty();
        buffer.discard();
    }

    @Test
    void aKeptPathThatBeganWithACachedDirectoryPathIsNotUsedByABufferThatRenamedADirectory() {
        Nfh root = root();
        Nfh dir = add(root, "d", FileType.DIRECTORY, 10);
        Nfh file = add(dir, "f", FileType.REGULAR, 11);
        try (HandleSnapshot snapshot = table.read()) {
            assertThat(snapshot.path(dir)).contains(List.of("d"));
        }
        assertThat(path(file)).contains(List.of("d", "f"));
        TxnBuffer buffer = table.buffer();
        try (HandleTable.Binding binding = table.bind(buffer)) {
            try (HandleBatch batch = table.write()) {
                batch.rename(root, "d", root, "e");
                batch.commit();
            }
            assertThat(path(file)).contains(List.of("e", "f"));
        }
        assertThat(path(file)).contains(List.of("d", "f"));
        buffer.discard();
    }

    @Test
    void theCacheKeepsAtMostItsBound() {
        Nfh root = root();
        for (int i = 0; i <= HandleTable.MAX_CACHED_READS; i++) {
            child(root, "n" + i);
        }
        assertThat(table.cachedReadCount()).isBetween(1, HandleTable.MAX_CACHED_READS);
    }
}
