package org.tcnfs.client.vector;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsExceptions;

/**
 * The result of a vectorized call: one {@link ItemResult} per item, in the items' order.
 *
 * @param items per-item results
 * @param firstFailure the index of the first failed item, or -1 when none failed
 * @param committed whether every item took effect: in {@link Mode#TRANSACTION}, whether the transaction committed;
 *        in {@link Mode#PLAIN}, whether every compound ran to its end (no item failed)
 * @param mode how the compounds were sent
 * @param compounds how many COMPOUND RPCs the call sent
 * @param <T> the item value type
 */
public record VResult<T>(List<ItemResult<T>> items, int firstFailure, boolean committed, Mode mode, int compounds) {
    public VResult {
        items = List.copyOf(items);
        Objects.requireNonNull(mode, "mode");
        if (firstFailure < -1 || firstFailure >= Math.max(items.size(), 1) && firstFailure != -1) {
            throw new IllegalArgumentException("firstFailure " + firstFailure + " of " + items.size() + " items");
        }
        if (committed && firstFailure != -1) {
            throw new IllegalArgumentException("committed with a failed item");
        }
    }

    /** Whether every item is done. */
    public boolean isOk() {
        return firstFailure == -1 && committed;
    }

    /** The result of item {@code index}. */
    public ItemResult<T> item(int index) {
        return items.get(index);
    }

    /** The value of item {@code index} (null when it has none). */
    public T value(int index) {
        return items.get(index).value();
    }

    /** The values of all items, in order (null for items without one). */
    public List<T> values() {
        List<T> out = new ArrayList<>(items.size());
        for (ItemResult<T> r : items) {
            out.add(r.value());
        }
        return out;
    }

    /**
     * This result when every item is done.
     *
     * @throws NfsException the exception of the first failure's status, naming the item
     */
    public VResult<T> orThrow() throws NfsException {
        if (firstFailure >= 0) {
            ItemResult<T> failed = items.get(firstFailure);
            throw NfsExceptions.of(failed.status(), "item " + firstFailure + " failed with " + failed.status()
                    + (mode == Mode.TRANSACTION ? "; the transaction rolled back" : ""));
        }
        return this;
    }

    /** Results with indexes shifted, for calls made of several batches. */
    static <T> VResult<T> concat(List<VResult<T>> parts, Mode mode) {
        List<ItemResult<T>> all = new ArrayList<>();
        int first = -1;
        int compounds = 0;
        boolean committed = true;
        for (VResult<T> p : parts) {
            if (first == -1 && p.firstFailure() >= 0) {
                first = all.size() + p.firstFailure();
            }
            all.addAll(p.items());
            compounds += p.compounds();
            committed &= p.committed();
        }
        return new VResult<>(all, first, committed && first == -1, mode, compounds);
    }
}
