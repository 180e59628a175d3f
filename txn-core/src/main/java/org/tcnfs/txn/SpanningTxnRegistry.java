package org.tcnfs.txn;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.log.RateLimitedLog;
import org.tcnfs.nfs4.rpc.SpanningTransactions;
import org.tcnfs.nfs4.status.BadStateIdException;
import org.tcnfs.nfs4.status.DelayException;
import org.tcnfs.nfs4.status.NoSpcException;
import org.tcnfs.nfs4.status.NfsStatus;

/**
 * The open transactions that span compounds, by id (docs/protocol.md): serves TXN_BEGIN, TXN_COMMIT and
 * TXN_ABORT, finds the transaction of a TXN_COMPOUND for the {@link TransactionHook}, and aborts, from a reaper
 * thread, those whose connection closed or that stayed idle past {@link SpanningLimits#idleTimeout()} (the
 * client is gone: its lease would have expired). At most {@link SpanningLimits#maxOpen()} are open, at most
 * {@link SpanningLimits#maxOpenPerAddress()} of them by the connections of one client address, and their
 * compounds hold at most {@link SpanningLimits#maxHeldOps()} operations together ({@link #holdOps}). A client can
 * begin and drop transactions as fast as it likes: refusals and reaped transactions are logged at most 10 lines
 * per 10 s each, with a count of those left out.
 *
 * <p>Thread-safe.
 */
final class SpanningTxnRegistry implements SpanningTransactions, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SpanningTxnRegistry.class);
    private static final HexFormat HEX = HexFormat.of();
    private static final RateLimitedLog REFUSED = RateLimitedLog.of(LOG, 10, Duration.ofSeconds(10));
    private static final RateLimitedLog REAPED = RateLimitedLog.of(LOG, 10, Duration.ofSeconds(10));

    private final TransactionServices services;
    private final SpanningLimits limits;
    private final ConcurrentHashMap<String, MultiTransaction> open = new ConcurrentHashMap<>();
    /** Open transactions by client address (only addresses with at least one); guarded by {@code this}. */
    private final java.util.HashMap<InetAddress, Integer> openByAddress = new java.util.HashMap<>();
    private final SecureRandom random = new SecureRandom();
    /** Tickets grow with time, so that they keep their order across restarts. */
    private final AtomicLong nextTicket = new AtomicLong(System.currentTimeMillis() * 1000);
    private final ScheduledExecutorService reaper;
    /** How the most recent transactions ended, for retried TXN_COMMIT and TXN_ABORT calls; bounded. */
    private final EndedTransactions ended = new EndedTransactions(EndedTransactions.DEFAULT_CAPACITY);
    /** Test-only pause before every commit and rollback ({@value #END_DELAY_PROPERTY}); 0 in production. */
    private final long endDelayMillis = Long.getLong(END_DELAY_PROPERTY, 0L);

    /**
     * Test-only system property: milliseconds every commit and rollback of a transaction that spans compounds waits
     * before it starts, to stand for a very large transaction (tests of clients whose per-call timeout is shorter).
     */
    static final String END_DELAY_PROPERTY = "tcnfs.test.txn-end-delay-ms";

    /** How long {@link #close()} waits for an abort the reaper is running. */
    private static final java.time.Duration REAPER_DRAIN = java.time.Duration.ofSeconds(30);
    final AtomicLong begun = new AtomicLong();
    final AtomicLong committed = new AtomicLong();
    final AtomicLong aborted = new AtomicLong();
    /** Operations the compounds of all open transactions hold ({@link SpanningLimits#maxHeldOps()}). */
    final AtomicLong heldOps = new AtomicLong();
    final AtomicLong heldOpsRefusals = new AtomicLong();

    SpanningTxnRegistry(TransactionServices services, SpanningLimits limits) {
        this.services = Objects.requireNonNull(services, "services");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.reaper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tcnfs-txn-reaper");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(50, Math.min(1000, limits.idleTimeout().toMillis() / 4));
        reaper.scheduleWithFixedDelay(this::reap, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * The oldest a ticket given back to TXN_BEGIN may be, in ticket units (microseconds): an hour, or ten idle
     * timeouts if that is longer.
     */
    private long maxTicketAge() {
        return Math.max(3_600_000_000L, 10 * Math.min(limits.idleTimeout().toMillis(), Long.MAX_VALUE / 10_000)
                * 1000);
    }

    SpanningLimits limits() {
        return limits;
    }

    /** Transactions that span compounds open now. */
    int openCount() {
        return open.size();
    }

    @Override
    public synchronized Begun begin(long ticket, Connection connection) {
        if (open.size() >= limits.maxOpen()) {
            REFUSED.warn("TXN_BEGIN refused with NFS4ERR_DELAY: {} transactions that span compounds are open "
                    + "(max-open-txns)", open.size());
            return new Begun(NfsStatus.DELAY, new byte[0], 0, 0, 0, 0);
        }
        InetAddress address = connection.address();
        int ofAddress = address == null ? 0 : openByAddress.getOrDefault(address, 0);
        if (address != null && ofAddress >= limits.maxOpenPerAddress()) {
            REFUSED.warn("TXN_BEGIN from {} refused with NFS4ERR_DELAY: its connections hold {} open transactions "
                    + "that span compounds (max-open-txns-per-address)", address.getHostAddress(), ofAddress);
            return new Begun(NfsStatus.DELAY, new byte[0], 0, 0, 0, 0);
        }
        long now = nextTicket.incrementAndGet();
        // an earlier attempt's ticket keeps its age; one this server cannot have issued, or older than a retry
        // can be (a forged ticket of 1 would make its holder the oldest, never dying, for ever), is replaced
        long t = ticket > 0 && ticket < now && now - ticket <= maxTicketAge() ? ticket : now;
        byte[] id = new byte[16];
        random.nextBytes(id);
        String key = HEX.formatHex(id);
        MultiTransaction txn = new MultiTransaction(services, id, key.substring(0, 12), t, connection);
        open.put(key, txn);
        if (address != null) {
            openByAddress.merge(address, 1, Integer::sum);
        }
        begun.incrementAndGet();
        LOG.debug("txn {} begun (ticket {}) on {}", txn.name(), t, connection.id());
        return new Begun(NfsStatus.OK, id, t, limits.maxCompounds(), limits.maxBytes(),
                (int) Math.min(Integer.MAX_VALUE, limits.idleTimeout().toMillis()));
    }

    /**
     * The open transaction {@code id} of {@code connection}, entered for one call (the caller must
     * {@link MultiTransaction#exit()} it).
     *
     * @throws BadStateIdException unknown, ended, or bound to another connection
     * @throws DelayException another call of it is running
     */
    MultiTransaction enter(byte[] id, Connection connection) throws BadStateIdException, DelayException {
        MultiTransaction txn = id == null ? null : open.get(HEX.formatHex(id));
        if (txn == null || !txn.connection().id().equals(connection.id())) {
            throw new BadStateIdException("no open transaction with this id on this connection");
        }
        if (!txn.enter()) {
            throw new DelayException("another call of transaction " + txn.name() + " is running");
        }
        if (txn.state() != MultiTransaction.State.OPEN) {
            txn.exit();
            throw new BadStateIdException("transaction " + txn.name() + " has ended");
        }
        return txn;
    }

    /** Aborts {@code txn} (entered by the caller) and forgets it. */
    void abortEntered(MultiTransaction txn, String why) {
        try {
            pauseForTest();
            txn.abort(why);
        } finally {
            ended.record(txn.id(), txn.connection().id(), EndedTransactions.End.BY_ROLLBACK,
                    txn.state() == MultiTransaction.State.UNDO_FAILED ? NfsStatus.SERVERFAULT : NfsStatus.OK);
            forget(txn);
            aborted.incrementAndGet();
        }
    }

    private void pauseForTest() {
        if (endDelayMillis > 0) {
            try {
                Thread.sleep(endDelayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Removes an ended transaction from the open ones and from its address's count. */
    private void forget(MultiTransaction txn) {
        heldOps.addAndGet(-txn.takeHeldOps());
        if (open.remove(HEX.formatHex(txn.id()), txn)) {
            InetAddress address = txn.connection().address();
            if (address != null) {
                synchronized (this) {
                    openByAddress.computeIfPresent(address, (a, n) -> n <= 1 ? null : n - 1);
                }
            }
        }
    }

    /**
     * Counts a compound of {@code ops} operations of {@code txn} (entered by the caller) against the budget of
     * operations all open transactions hold, before it changes anything.
     *
     * @throws NoSpcException when the transaction alone would pass the budget (it can never fit)
     * @throws DelayException when the transactions open now would pass it together (try again later)
     */
    void holdOps(MultiTransaction txn, int ops) throws NoSpcException, DelayException {
        long max = limits.maxHeldOps();
        if (txn.heldOps() + ops > max) {
            heldOpsRefusals.incrementAndGet();
            throw new NoSpcException("transaction " + txn.name() + " would hold " + (txn.heldOps() + ops)
                    + " operations, more than txn-held-ops (" + max + ") allows all transactions together");
        }
        while (true) {
            long now = heldOps.get();
            if (now + ops > max) {
                heldOpsRefusals.incrementAndGet();
                LOG.info("txn {}: compound of {} operations refused with NFS4ERR_DELAY: the open transactions that "
                        + "span compounds hold {} of txn-held-ops ({})", txn.name(), ops, now, max);
                throw new DelayException("the open transactions hold " + now + " operations; " + ops
                        + " more would pass txn-held-ops (" + max + ")");
            }
            if (heldOps.compareAndSet(now, now + ops)) {
                txn.holdOps(ops);
                return;
            }
        }
    }

    /**
     * Enters the transaction {@code txnId} names, ends it with {@code end} and leaves it; the status of the
     * refusal when it cannot be entered.
     */
    private NfsStatus whileEntered(byte[] txnId, Connection connection, EndedTransactions.End how,
            Function<MultiTransaction, NfsStatus> end) {
        MultiTransaction txn;
        try {
            txn = enter(txnId, connection);
        } catch (BadStateIdException e) {
            // a retry of the call that ended it (its reply was late or lost) gets the same answer
            return ended.answer(txnId, connection.id(), how).orElse(e.status());
        } catch (DelayException e) {
            return e.status();
        }
        try {
            return end.apply(txn);
        } finally {
            txn.exit();
        }
    }

    @Override
    public NfsStatus commit(byte[] txnId, Connection connection) {
        return whileEntered(txnId, connection, EndedTransactions.End.BY_COMMIT, txn -> {
            NfsStatus status = NfsStatus.SERVERFAULT;
            try {
                pauseForTest();
                txn.commit();
                committed.incrementAndGet();
                status = NfsStatus.OK;
            } catch (java.io.IOException | RuntimeException e) {
                aborted.incrementAndGet();
                status = txn.state() == MultiTransaction.State.UNDO_FAILED ? NfsStatus.SERVERFAULT : NfsStatus.IO;
            } finally {
                ended.record(txn.id(), connection.id(), EndedTransactions.End.BY_COMMIT, status);
                forget(txn);
            }
            return status;
        });
    }

    @Override
    public NfsStatus abort(byte[] txnId, Connection connection) {
        return whileEntered(txnId, connection, EndedTransactions.End.BY_ROLLBACK, txn -> {
            abortEntered(txn, "TXN_ABORT");
            return txn.state() == MultiTransaction.State.UNDO_FAILED ? NfsStatus.SERVERFAULT : NfsStatus.OK;
        });
    }

    /** Aborts the transactions whose connection closed or that stayed idle too long. */
    private void reap() {
        try {
            long idleNanos = limits.idleTimeout().toNanos();
            for (MultiTransaction txn : List.copyOf(open.values())) {
                String why = null;
                if (!txn.connection().open().getAsBoolean()) {
                    why = "its connection closed";
                } else if (txn.idleNanos() > idleNanos) {
                    why = "no call for " + limits.idleTimeout().toMillis() + " ms (txn-idle-timeout)";
                }
                if (why == null || !txn.enter()) {
                    continue;
                }
                try {
                    REAPED.warn("txn {}: aborted because {}; rolling back its {} compounds", txn.name(), why,
                            txn.compoundCount());
                    abortEntered(txn, why);
                } finally {
                    txn.exit();
                }
            }
        } catch (RuntimeException e) {
            LOG.error("the transaction reaper failed: {}", e.toString(), e);
        }
    }

    /**
     * Stops the reaper, letting an abort it runs finish (an interrupt would stop its undo half-way and leave the
     * transaction to startup recovery), then aborts every open transaction (waiting for a call in flight).
     */
    @Override
    public void close() {
        reaper.shutdown();
        try {
            if (!reaper.awaitTermination(REAPER_DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("the transaction reaper did not finish its abort within {} s; what it leaves is rolled back "
                        + "by recovery at the next start", REAPER_DRAIN.toSeconds());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (MultiTransaction txn : List.copyOf(open.values())) {
            txn.enterWaiting();
            try {
                abortEntered(txn, "the server is shutting down");
            } finally {
                txn.exit();
            }
        }
    }
}
