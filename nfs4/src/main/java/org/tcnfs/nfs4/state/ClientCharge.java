package org.tcnfs.nfs4.state;

/**
 * What one client record is charged in its address's {@link ClientMemory} account: the bytes of its record,
 * sessions, owners, states and byte-range locks. Once drained (the record is gone), further charges and
 * releases are ignored, so the state released after the record cannot be counted twice or leak.
 *
 * <p>Thread-safe; its monitor is a leaf lock (nothing is taken while holding it).
 */
final class ClientCharge {
    /** The charge of clients made outside the registry (tests, other layers): nothing is counted. */
    static final ClientCharge NONE = new ClientCharge(null, null);

    private final ClientMemory memory;
    private final ClientMemory.Account account;
    private long bytes;
    private boolean drained;

    ClientCharge(ClientMemory memory, ClientMemory.Account account) {
        this.memory = memory;
        this.account = account;
    }

    /** Whether {@code more} bytes fit the budgets of this client's address and of all clients. */
    boolean admits(long more) {
        return memory == null || memory.admits(account, more);
    }

    /** Logs (rate-limited) that {@code what}, which needed {@code bytes}, was refused for lack of budget. */
    void warnRefused(String what, long bytes, long nowMillis) {
        if (memory != null) {
            memory.warnRefused(account, what, bytes, nowMillis);
        }
    }

    synchronized void add(long more) {
        if (memory == null || drained || more <= 0) {
            return;
        }
        bytes += more;
        memory.charge(account, more);
    }

    synchronized void subtract(long less) {
        if (memory == null || drained || less <= 0) {
            return;
        }
        long n = Math.min(less, bytes);
        bytes -= n;
        memory.release(account, n);
    }

    /** Releases everything charged and ignores what comes later; returns the bytes released. */
    synchronized long drain() {
        if (memory == null || drained) {
            return 0;
        }
        drained = true;
        long n = bytes;
        bytes = 0;
        memory.release(account, n);
        return n;
    }

    synchronized long bytes() {
        return bytes;
    }

    ClientMemory.Account account() {
        return account;
    }
}
