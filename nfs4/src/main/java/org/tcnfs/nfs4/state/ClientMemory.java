package org.tcnfs.nfs4.state;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heap that client state takes, estimated in bytes and charged to the source address each client record
 * was created from, against two budgets: one per address ({@link SessionLimits#clientMemoryPerAddressBytes()})
 * and one for all clients together ({@link SessionLimits#clientMemoryBytes()}). What is charged: the client
 * record ({@link #RECORD_BYTES} plus its owner id), each session's bookkeeping ({@link #SESSION_BYTES} plus
 * {@link #SLOT_BYTES} a slot; the kept replies have their own bound, {@link ReplyCacheBudget}), each NFSv4.0
 * open or lock owner with its last reply ({@link #OWNER_BYTES} plus its name), each open or lock state
 * ({@link #STATE_BYTES} plus the owner's name) and each byte-range lock ({@link #RANGE_BYTES}). The figures
 * are upper estimates of the objects, map entries and index entries involved, checked against the heap of
 * the server (ClientMemoryBudgetIT: 2,000 NFSv4.0 clients with an open each, and opens of 1 KiB owners until
 * refused, take less heap than they are charged; docs/security.md), so the real heap stays below the charge.
 *
 * <p>Admission is checked before something new is made ({@link #admits}); the charge follows once it exists,
 * so concurrent requests may pass a budget by the state of one request each. A client's charges go through
 * its {@link ClientCharge}; when the record goes, the registry drains that charge at once, and the releases of
 * its states that follow are no-ops.
 *
 * <p>Thread-safe: byte counts are atomic; the map of accounts is guarded by the registry's monitor.
 */
final class ClientMemory {
    private static final Logger LOG = LoggerFactory.getLogger(ClientMemory.class);

    /**
     * A client record with its index entries, callback, verifiers, empty session map and open-state entry
     * (lock, owner maps); plus its owner id.
     */
    static final int RECORD_BYTES = 1536;
    /** A session without its slots: id, channel attributes, map entries. */
    static final int SESSION_BYTES = 1024;
    /** One slot of a session's slot table, without the reply it keeps. */
    static final int SLOT_BYTES = 128;
    /** An NFSv4.0 owner's sequence with the reply to its last request (OPEN's is the largest); plus its name. */
    static final int OWNER_BYTES = 1024;
    /**
     * An open or lock state with its stateid, owner entry and index entries, and the state of its file (the
     * first open of a file makes it); plus the owner's name.
     */
    static final int STATE_BYTES = 1024;
    /** One byte-range lock. */
    static final int RANGE_BYTES = 96;

    /** The bytes and records charged to one source address. */
    static final class Account {
        private final InetAddress address;
        private final AtomicLong bytes = new AtomicLong();
        /** Client records created from the address; guarded by the registry's monitor. */
        private int records;

        private Account(InetAddress address) {
            this.address = address;
        }

        /** The address, {@code null} for the account of records whose address is not known. */
        InetAddress address() {
            return address;
        }

        long bytes() {
            return bytes.get();
        }

        int records() {
            return records;
        }
    }

    private final long perAddress;
    private final long total;
    private final AtomicLong used = new AtomicLong();
    private final Map<InetAddress, Account> accounts = new HashMap<>();
    /** Records of unknown address: bounded by the total budget only. */
    private final Account unknown = new Account(null);
    private final AtomicLong lastWarned = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong suppressed = new AtomicLong();

    ClientMemory(SessionLimits limits) {
        this.perAddress = limits.clientMemoryPerAddressBytes();
        this.total = limits.clientMemoryBytes();
    }

    /** The account of {@code address} (made if new); caller holds the registry's monitor. */
    Account account(InetAddress address) {
        return address == null ? unknown : accounts.computeIfAbsent(address, Account::new);
    }

    /** The account of {@code address} if it has one; caller holds the registry's monitor. */
    Account existing(InetAddress address) {
        return address == null ? unknown : accounts.get(address);
    }

    /** One more record of {@code account}; caller holds the registry's monitor. */
    void recordAdded(Account account) {
        account.records++;
    }

    /** One record of {@code account} fewer: the account goes once it has none; caller holds the monitor. */
    void recordRemoved(Account account) {
        account.records--;
        if (account.records <= 0 && account != unknown) {
            accounts.remove(account.address, account);
        }
    }

    /** Whether {@code bytes} more fit both the account's budget and the total one. */
    boolean admits(Account account, long bytes) {
        return fitsAddress(account, bytes) && fitsTotal(bytes);
    }

    /** Whether {@code bytes} more fit the account's own budget (always, for the account of unknown addresses). */
    boolean fitsAddress(Account account, long bytes) {
        return account == unknown || account.bytes.get() + bytes <= perAddress;
    }

    /** Whether {@code bytes} more fit the total budget. */
    boolean fitsTotal(long bytes) {
        return used.get() + bytes <= total;
    }

    void charge(Account account, long bytes) {
        account.bytes.addAndGet(bytes);
        used.addAndGet(bytes);
    }

    void release(Account account, long bytes) {
        account.bytes.addAndGet(-bytes);
        used.addAndGet(-bytes);
    }

    /** Bytes charged to all clients together. */
    long usedBytes() {
        return used.get();
    }

    long perAddressBudget() {
        return perAddress;
    }

    long totalBudget() {
        return total;
    }

    /**
     * Logs, at most once a minute (with the count of refusals in between), that {@code what}, which needed
     * {@code bytes}, was refused because the client state of {@code account} (null: not known) or of all
     * clients reached its budget.
     */
    void warnRefused(Account account, String what, long bytes, long nowMillis) {
        if (account == null) {
            account = unknown;
        }
        long last = lastWarned.get();
        if (last != Long.MIN_VALUE && nowMillis - last < 60_000) {
            suppressed.incrementAndGet();
            return;
        }
        if (!lastWarned.compareAndSet(last, nowMillis)) {
            suppressed.incrementAndGet();
            return;
        }
        long more = suppressed.getAndSet(0);
        String message;
        if (!fitsAddress(account, bytes)) {
            message = String.format("client state of %s at its budget: %s of %s (setting client-memory-per-address) "
                    + "in %d client records; %s refused. Raise client-memory-per-address if this address is a NAT "
                    + "gateway of many clients", account.address, mib(account.bytes.get()), mib(perAddress),
                    account.records, what);
        } else {
            message = String.format("client state of all clients at its budget: %s of %s (setting client-memory); "
                    + "%s refused%s", mib(used.get()), mib(total), what,
                    account.address == null ? "" : " (request from " + account.address + ", which holds "
                            + mib(account.bytes.get()) + ")");
        }
        if (more > 0) {
            LOG.warn("{} ({} more refusals since the last warning)", message, more);
        } else {
            LOG.warn(message);
        }
    }

    private static String mib(long bytes) {
        return String.format("%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
