package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.proto.RecoveryRecords;
import org.tcnfs.proto.TxnIdState;
import org.tcnfs.txn.handles.HandleBatch;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.HandleTableTestBase;
import org.tcnfs.txn.handles.SideTable;
import org.tcnfs.txn.handles.TxnBuffer;

/** Transaction ids: unique across restarts and crashes (a record's key must never be reused). */
class TxnIdsTest extends HandleTableTestBase {
    private static final byte[] FLOOR_KEY = "floor".getBytes(StandardCharsets.US_ASCII);

    @AfterEach
    void unbind() {
        table.unbindCurrentThread();
    }

    private void persistFloor(long floor) {
        SideTable side = table.sideTable(TxnIds.TABLE);
        try (HandleBatch batch = table.write()) {
            batch.put(side, FLOOR_KEY, RecoveryRecords.encode(new TxnIdState(floor)));
            batch.commit();
        }
    }

    private static long now() {
        return System.currentTimeMillis() * 1000;
    }

    @Test
    void idsStrictlyIncrease() {
        TxnIds ids = new TxnIds(table);
        long previous = 0;
        for (int i = 0; i < 10_000; i++) {
            long id = ids.next();
            assertThat(id).isGreaterThan(previous);
            previous = id;
        }
    }

    @Test
    void idsAreUniqueAcrossThreads() throws InterruptedException {
        TxnIds ids = new TxnIds(table);
        List<Long> all = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(new Thread(() -> {
                for (int i = 0; i < 2_000; i++) {
                    all.add(ids.next());
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join(30_000);
        }
        assertThat(all).hasSize(8_000).doesNotHaveDuplicates();
    }

    @Test
    void idsAfterAReopenAreAboveEveryEarlierId() {
        TxnIds first = new TxnIds(table);
        long highest = 0;
        for (int i = 0; i < 5_000; i++) {
            highest = first.next();
        }
        reopen();

        long next = new TxnIds(table).next();

        assertThat(next).isGreaterThan(highest);
    }

    @Test
    void aFloorPersistedFarAheadOfTheClockIsRespectedAfterAReopen() {
        long far = now() + 100 * TxnIds.BLOCK;
        persistFloor(far);
        reopen();

        TxnIds ids = new TxnIds(table);
        long first = ids.next();
        long second = ids.next();
        reopen();
        long afterReopen = new TxnIds(table).next();

        assertThat(first).isGreaterThanOrEqualTo(far);
        assertThat(second).isGreaterThan(first);
        assertThat(afterReopen).isGreaterThan(second);
    }

    @Test
    void aDamagedFloorIsRefused() {
        SideTable side = table.sideTable(TxnIds.TABLE);
        try (HandleBatch batch = table.write()) {
            batch.put(side, FLOOR_KEY, new byte[] {(byte) 0xff, 0x13, 0x37});
            batch.commit();
        }

        assertThatThrownBy(() -> new TxnIds(table)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("damaged");
    }

    @Test
    void anIdHandedOutOnAThreadBoundToABufferStillPersistsItsFloor() {
        long far = now() + 100 * TxnIds.BLOCK;
        persistFloor(far);
        TxnIds ids = new TxnIds(table);
        TxnBuffer buffer = table.buffer();
        long id;
        try (HandleTable.Binding bound = table.bind(buffer)) {
            id = ids.next();
        }
        buffer.discard();
        reopen();

        long afterReopen = new TxnIds(table).next();

        assertThat(afterReopen).isGreaterThan(id);
    }
}
