package org.tcnfs.txn;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds of transactions that span compounds (settings {@code max-open-txns}, {@code txn-max-compounds},
 * {@code txn-max-bytes}, {@code txn-idle-timeout}).
 *
 * @param maxOpen most such transactions open at once; TXN_BEGIN past it gets NFS4ERR_DELAY
 * @param maxCompounds most TXN_COMPOUNDs one transaction carries; the next is refused with NFS4ERR_NOSPC
 *     before it changes anything, and the transaction is aborted
 * @param maxBytes most bytes one transaction carries (its TXN_COMPOUND requests plus its backups); the
 *     compound that would pass it is refused like one past {@code maxCompounds}
 * @param idleTimeout a transaction without a call for this long is aborted (its client is presumed gone)
 */
public record SpanningLimits(int maxOpen, int maxCompounds, long maxBytes, Duration idleTimeout) {
    /** The defaults: 64 open, 100,000 compounds, 4 GiB, 90 s. */
    public static final SpanningLimits DEFAULT = new SpanningLimits(64, 100_000, 4L << 30, Duration.ofSeconds(90));

    public SpanningLimits {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (maxOpen < 0 || maxCompounds < 1 || maxBytes < 1 || idleTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("invalid limits: " + maxOpen + ", " + maxCompounds + ", " + maxBytes
                    + ", " + idleTimeout);
        }
    }
}
