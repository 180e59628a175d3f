package org.tcnfs.txn.lock;

/**
 * Who holds a lock: one compound (a fresh owner per {@link LockManager#acquire(java.util.Collection,
 * java.time.Duration)}, bound to its thread) or one transaction that spans compounds (one owner for its whole
 * life, on whatever threads its compounds run).
 *
 * <p>The {@linkplain #ticket() ticket} orders owners for wait-die: the smaller ticket is the older owner. An
 * older requester waits for a younger holder; a younger requester of a key an older transaction holds dies
 * ({@link WaitDieException}) instead of waiting, so waits never form a cycle. A single compound is the youngest
 * of all ({@link #YOUNGEST}): once it holds a key it dies at once rather than wait for a transaction that spans
 * compounds (while it holds nothing it may wait, bounded by its timeout: no one can be waiting for it), and it
 * waits (bounded by its timeout) for other single compounds, which take their keys in one global order.
 */
public final class LockOwner {
    /** The ticket of a single compound: younger than every transaction that spans compounds. */
    public static final long YOUNGEST = Long.MAX_VALUE;

    private final long ticket;
    private final Thread thread;
    private final String name;

    private LockOwner(long ticket, Thread thread, String name) {
        this.ticket = ticket;
        this.thread = thread;
        this.name = name;
    }

    /** The owner of one compound's locks, bound to the current thread. */
    static LockOwner compound() {
        return new LockOwner(YOUNGEST, Thread.currentThread(), null);
    }

    /**
     * The owner of a transaction that spans compounds.
     *
     * @param ticket its wait-die ticket, smaller is older; below {@link #YOUNGEST}
     * @param name how diagnostics name it (its id)
     */
    public static LockOwner transaction(long ticket, String name) {
        if (ticket < 0 || ticket >= YOUNGEST) {
            throw new IllegalArgumentException("ticket out of range: " + ticket);
        }
        return new LockOwner(ticket, null, name);
    }

    /** The wait-die ticket; smaller is older. */
    public long ticket() {
        return ticket;
    }

    /** Whether this owner is a transaction that spans compounds (not bound to one thread). */
    public boolean spansCompounds() {
        return thread == null;
    }

    /** The thread of a single compound's owner; null for a transaction that spans compounds. */
    Thread thread() {
        return thread;
    }

    /** Whether a request by this owner dies rather than wait for {@code holder} (wait-die). */
    boolean diesFor(LockOwner holder) {
        return holder.ticket < ticket || (holder.ticket == ticket && ticket != YOUNGEST);
    }

    @Override
    public String toString() {
        return thread != null ? "compound on " + thread.getName() : "txn " + name + " (ticket " + ticket + ")";
    }
}
