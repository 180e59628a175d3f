package org.tcnfs.txn;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.tcnfs.proto.InvalidRecordException;
import org.tcnfs.proto.RecoveryRecords;
import org.tcnfs.proto.TxnIdState;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.SideTable;

/**
 * Transaction ids, unique across restarts and crashes: from the clock in microseconds, strictly
 * increasing, and never below a floor kept durably in LMDB ({@link TxnIdState}): before an id reaches the
 * persisted floor, a floor one block higher is persisted, so a crash skips at most a block and never
 * reuses an id, even if the clock stepped back. Thread-safe.
 */
final class TxnIds {
    /** The side table holding the floor. */
    static final String TABLE = "txn-ids";
    /** How many ids one durable floor update reserves. */
    static final long BLOCK = 1_000_000_000L;
    private static final byte[] KEY = "floor".getBytes(StandardCharsets.US_ASCII);

    private final HandleTable handles;
    private final SideTable table;
    private long last;
    private long persistedFloor;

    TxnIds(HandleTable handles) {
        this.handles = handles;
        this.table = handles.sideTable(TABLE);
        Optional<byte[]> stored;
        try (var snapshot = handles.read()) {
            stored = snapshot.get(table, KEY);
        }
        long floor = TxnIdState.INITIAL.nextTxnIdFloor();
        if (stored.isPresent()) {
            try {
                floor = RecoveryRecords.decodeTxnIdState(stored.get()).nextTxnIdFloor();
            } catch (InvalidRecordException e) {
                throw new IllegalStateException("the stored transaction id floor is damaged: " + e.getMessage(), e);
            }
        }
        this.persistedFloor = floor;
        this.last = floor - 1;
    }

    /** The next id. */
    synchronized long next() {
        long id = Math.max(last + 1, System.currentTimeMillis() * 1000);
        if (id >= persistedFloor) {
            long floor = id + BLOCK;
            byte[] state = RecoveryRecords.encode(new TxnIdState(floor));
            handles.commitDurably(batch -> batch.put(table, KEY, state));
            persistedFloor = floor;
        }
        last = id;
        return id;
    }
}
