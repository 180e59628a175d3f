package org.tcnfs.txn.handles;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * The TXN buffer of DESIGN.md step 6: the handle-table changes of one transactional compound, kept in
 * memory until the commit point. While a thread is {@link HandleTable#bind bound} to the buffer, every
 * {@link HandleTable#write()} batch it opens commits into the buffer, and its reads see the buffer over the
 * committed table; other threads see none of it. {@link #commit} applies all of it in one LMDB write
 * transaction, together with whatever else the caller writes there (deleting the recovery record), so the
 * handle changes and the end of the transaction are one atomic, durable step. {@link #discard()} forgets
 * it (rollback).
 *
 * <p>Changes are applied as the rows they produced. Two buffers never change the same rows because
 * their compounds hold conflicting locks on the objects those rows describe.
 *
 * <p>Not thread-safe: used by the thread that runs its compound.
 */
public final class TxnBuffer {
    private final HandleTable table;
    private final OverlayStore overlay;

    TxnBuffer(HandleTable table, Store committed) {
        this.table = table;
        this.overlay = new OverlayStore(committed);
    }

    /** Whether nothing was changed. */
    public boolean isEmpty() {
        return overlay.isEmpty();
    }

    /** How many rows the buffer changes. */
    public int changedRows() {
        return overlay.size();
    }

    /**
     * Applies the buffer in one LMDB write transaction, runs {@code alsoInSameCommit} inside it (for the
     * caller's side-table writes), and commits, grouped with concurrent commits
     * ({@link HandleTable#commitDurably}); the buffer is empty afterwards. When anything fails nothing
     * is committed and the buffer keeps its changes.
     */
    public void commit(Consumer<HandleBatch> alsoInSameCommit) {
        Objects.requireNonNull(alsoInSameCommit, "alsoInSameCommit");
        table.commitDurably(batch -> {
            overlay.applyTo(batch.store);
            alsoInSameCommit.accept(batch);
        });
        overlay.clear();
    }

    /** Forgets every change (the transaction rolled back). */
    public void discard() {
        overlay.clear();
    }

    HandleBatch batch() {
        OverlayStore nested = new OverlayStore(overlay);
        return new HandleBatch(table, nested, new HandleBatch.Ending() {
            @Override
            public void commit() {
                nested.mergeInto(overlay);
            }

            @Override
            public void close(boolean committed) {
                nested.clear();
            }
        });
    }

    HandleSnapshot snapshot() {
        return new HandleSnapshot(table, overlay, () -> { });
    }
}
