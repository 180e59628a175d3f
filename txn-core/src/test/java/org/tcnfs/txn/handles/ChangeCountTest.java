package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.vfs.FileType;

/**
 * {@link HandleTable#changeCount()} and {@link HandleTable#unchangedSince}: every change a reader of the committed
 * table can see moves the count, reads do not, and there is no count while a change is under way or on a thread
 * bound to a transaction's buffer (the planner then checks its assumptions again).
 */
class ChangeCountTest extends HandleTableTestBase {
    /** Long enough that the background thread never runs during a test. */
    private static final Duration DELAY = Duration.ofHours(1);

    @Override
    @BeforeEach
    protected void openTable() {
        table = HandleTable.builder(state).lateDelay(DELAY).open();
    }

    @Test
    void readsLeaveTheCountAsItIs() {
        Nfh root = root();
        Nfh file = add(root, "f", FileType.REGULAR, 10);
        long count = table.changeCount();
        try (HandleSnapshot snapshot = table.read()) {
            assertThat(snapshot.node(file)).isPresent();
            assertThat(snapshot.path(file)).isPresent();
        }
        assertThat(table.child(root, "f")).contains(file);
        assertThat(count).isNotNegative();
        assertThat(table.unchangedSince(count)).isTrue();
        assertThat(table.changeCount()).isEqualTo(count);
    }

    @Test
    void aCommitOfAFileRowChangesTheCount() {
        Nfh root = root();
        long count = table.changeCount();
        add(root, "f", FileType.REGULAR, 10);
        assertThat(table.unchangedSince(count)).isFalse();
        assertThat(table.changeCount()).isNotEqualTo(count).isNotNegative();
    }

    @Test
    void rowsKeptPendingChangeTheCountWithoutAnLmdbCommit() {
        Nfh root = root();
        TxnBuffer buffer = table.plainBuffer();
        try (HandleTable.Binding binding = table.bind(buffer); HandleBatch batch = table.write()) {
            batch.register(root, "kept", FileType.REGULAR, 1, 30, 0);
            batch.commit();
        }
        long count = table.changeCount();
        long commits = table.commitCount();
        buffer.commitPending();
        assertThat(table.commitCount()).isEqualTo(commits);
        assertThat(table.child(root, "kept")).isPresent();
        assertThat(table.unchangedSince(count)).isFalse();
    }

    @Test
    void aQueuedRowRemovalChangesTheCountAndSoDoesItsCommit() {
        Nfh root = root();
        Nfh file = add(root, "f", FileType.REGULAR, 10);
        long count = table.changeCount();
        assertThat(table.late().unlinkLater(root, "f", file)).isTrue();
        assertThat(table.unchangedSince(count)).as("the planner's removalPending answer changed").isFalse();
        long queued = table.changeCount();
        table.late().flush();
        assertThat(table.child(root, "f")).isEmpty();
        assertThat(table.unchangedSince(queued)).isFalse();
    }

    @Test
    void thereIsNoCountWhileAChangeIsUnderWay() {
        root();
        table.changing();
        try {
            assertThat(table.changeCount()).isEqualTo(-1);
        } finally {
            table.changed();
        }
        long count = table.changeCount();
        assertThat(count).isNotNegative();
        assertThat(table.unchangedSince(-1)).isFalse();
    }

    @Test
    void aThreadBoundToABufferHasNoCount() {
        root();
        try (HandleTable.Binding binding = table.bind(table.plainBuffer())) {
            assertThat(table.changeCount()).isEqualTo(-1);
        }
        assertThat(table.changeCount()).isNotNegative();
    }

    @Test
    void theCommittedCountIgnoresWhatAThreadsBufferHolds() {
        Nfh root = root();
        long count = table.committedChangeCount();
        try (HandleTable.Binding binding = table.bind(table.plainBuffer())) {
            assertThat(table.committedChangeCount()).isEqualTo(count).isNotNegative();
            try (HandleBatch batch = table.write()) {
                batch.register(root, "buffered", FileType.REGULAR, 1, 31, 0);
                batch.commit();
            }
            assertThat(table.committedChangeCount()).as("a buffered row is no change of the committed table")
                    .isEqualTo(count);
            assertThat(table.changeCount()).as("but its reads see its own rows").isEqualTo(-1);
        }
        assertThat(table.committedChangeCount()).isEqualTo(count);
    }
}
