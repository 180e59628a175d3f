package org.tcnfs.nfs4.state;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The open and lock state one compound changed, as it was before the compound's first change to it, so
 * that a rolled-back transaction can put every open, share reservation, stateid seqid and byte-range lock
 * back exactly ({@link OpenStateTable#restore}). Opens and lock states the compound created are released
 * by the restore; ones it upgraded, downgraded, bumped, locked, unlocked, closed or freed get their share
 * modes, seqids, byte-range locks (per lock owner: split and merged ranges as they were) and existence back.
 *
 * <p>A journal records only while it is bound to the thread that runs the compound
 * ({@link OpenStateTable#bind}). The state of other owners is never touched by a restore: the restore works
 * owner by owner, so what other clients did meanwhile to the same files stays. NFSv4.0 owner sequences
 * (the seqids of OPEN, LOCK, ... requests) are not rolled back: they number requests the client sent and
 * got replies to, as a session's slot sequence does.
 *
 * <p>Not thread-safe: used by the one thread that runs the compound; entries are written under the
 * monitor of their file.
 */
public final class StateJournal {
    /** The state as it was before the compound first changed it ({@code created}: it did not exist). */
    record Saved(NfsState state, boolean created, int seqid, boolean closed, ShareMode share, int requested,
            List<ByteRangeLock> locks) {
    }

    private final OpenStateTable table;
    private final Map<NfsState, Saved> saved = new IdentityHashMap<>();
    private final List<Saved> order = new ArrayList<>();

    StateJournal(OpenStateTable table) {
        this.table = Objects.requireNonNull(table);
    }

    OpenStateTable table() {
        return table;
    }

    /** Under the state's file monitor, before its first change by the compound. */
    void save(NfsState state) {
        if (saved.containsKey(state)) {
            return;
        }
        Saved s;
        if (state instanceof OpenState open) {
            s = new Saved(open, false, open.seqid(), open.isClosed(), open.share(), open.requestedBits(), List.of());
        } else {
            s = new Saved(state, false, state.seqid(), state.isClosed(), null, 0,
                    state.file.locks.locksOf(state.owner));
        }
        saved.put(state, s);
        order.add(s);
    }

    /** Under the state's file monitor, right after the compound created it. */
    void created(NfsState state) {
        if (saved.containsKey(state)) {
            return;
        }
        Saved s = new Saved(state, true, state.seqid(), false, null, 0, List.of());
        saved.put(state, s);
        order.add(s);
    }

    /** The entries, in the order the compound first touched them. */
    List<Saved> entries() {
        return List.copyOf(order);
    }

    /** Whether the compound changed no open or lock state. */
    public boolean isEmpty() {
        return order.isEmpty();
    }

    /** How many states the compound created or changed. */
    public int size() {
        return order.size();
    }
}
