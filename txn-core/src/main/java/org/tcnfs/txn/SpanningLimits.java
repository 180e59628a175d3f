package org.tcnfs.txn;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds of transactions that span compounds (settings {@code max-open-txns}, {@code txn-max-compounds},
 * {@code txn-max-bytes}, {@code txn-idle-timeout}, {@code max-open-txns-per-address}, {@code txn-held-ops}).
 *
 * @param maxOpen most such transactions open at once; TXN_BEGIN past it gets NFS4ERR_DELAY
 * @param maxCompounds most TXN_COMPOUNDs one transaction carries; the next is refused with NFS4ERR_NOSPC
 *     before it changes anything, and the transaction is aborted
 * @param maxBytes most bytes one transaction carries (its TXN_COMPOUND requests plus its backups); the
 *     compound that would pass it is refused like one past {@code maxCompounds}
 * @param idleTimeout a transaction without a call for this long is aborted (its client is presumed gone)
 * @param maxOpenPerAddress most of the {@code maxOpen} that the connections of one client address may hold
 *     ({@code max-open-txns-per-address}), so that one host cannot take them all; TXN_BEGIN past it gets
 *     NFS4ERR_DELAY
 * @param maxHeldOps most operations the compounds of all open transactions that span compounds hold together
 *     (what the server keeps per open transaction grows with them: plans, lock keys, undo steps, handle rows);
 *     a compound that would pass it is refused with NFS4ERR_DELAY before it changes anything (NFS4ERR_NOSPC when
 *     its transaction alone would pass it), and its transaction is aborted
 */
public record SpanningLimits(int maxOpen, int maxCompounds, long maxBytes, Duration idleTimeout,
        int maxOpenPerAddress, long maxHeldOps) {
    /** Bytes of heap the server keeps per operation held, about (used to derive {@link #defaultMaxHeldOps()}). */
    public static final long HELD_OP_BYTES = 1024;
    /** The default share of one client address: 16. */
    public static final int DEFAULT_MAX_OPEN_PER_ADDRESS = 16;
    /**
     * The defaults: 64 open, 100,000 compounds, 4 GiB, 90 s, 16 per client address, {@link #defaultMaxHeldOps()}
     * held operations.
     */
    public static final SpanningLimits DEFAULT = new SpanningLimits(64, 100_000, 4L << 30, Duration.ofSeconds(90),
            DEFAULT_MAX_OPEN_PER_ADDRESS, defaultMaxHeldOps());

    public SpanningLimits {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (maxOpen < 0 || maxCompounds < 1 || maxBytes < 1 || idleTimeout.toMillis() < 1 || maxOpenPerAddress < 0
                || maxHeldOps < 1) {
            throw new IllegalArgumentException("invalid limits: " + maxOpen + ", " + maxCompounds + ", " + maxBytes
                    + ", " + idleTimeout + ", " + maxOpenPerAddress + ", " + maxHeldOps);
        }
    }

    /**
     * Limits without a share per client address (one address may hold all {@code maxOpen}) and with the default
     * {@link #maxHeldOps()}.
     */
    public SpanningLimits(int maxOpen, int maxCompounds, long maxBytes, Duration idleTimeout) {
        this(maxOpen, maxCompounds, maxBytes, idleTimeout, maxOpen, defaultMaxHeldOps());
    }

    /**
     * The default {@link #maxHeldOps()}: as many operations as a quarter of the maximum heap holds at
     * {@link #HELD_OP_BYTES} each (65,536 at -Xmx256m), at least 4,096.
     */
    public static long defaultMaxHeldOps() {
        return Math.max(4096, Runtime.getRuntime().maxMemory() / 4 / HELD_OP_BYTES);
    }
}
