package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.vfs.FileType;

/**
 * {@link HandleTable#cachedRead}: a read repeated while the table does not change is answered without a snapshot, the
 * first read after any change reads the table again, a thread whose buffer holds rows of its own always reads through
 * its buffer and keeps nothing, and the cache stays bounded.
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

    private Optional<Nfh> child(Nfh root, String name) {
        return table.cachedRead(new ChildOf(name), snapshot -> snapshot.child(root, name));
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

    @Test
    void theCacheKeepsAtMostItsBound() {
        Nfh root = root();
        for (int i = 0; i <= HandleTable.MAX_CACHED_READS; i++) {
            child(root, "n" + i);
        }
        assertThat(table.cachedReadCount()).isBetween(1, HandleTable.MAX_CACHED_READS);
    }
}
