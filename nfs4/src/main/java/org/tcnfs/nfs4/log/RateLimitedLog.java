package org.tcnfs.nfs4.log;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * One kind of log line that a client can cause at will (an undecodable request, a refused credential, a
 * closed connection), written at most {@code lines} times per {@code interval}; the lines left out are
 * counted and the next line written says how many, so an operator sees both the cause and the volume.
 *
 * <pre>{@code
 * private static final RateLimitedLog UNDECODABLE =
 *         RateLimitedLog.of(LOG, 5, Duration.ofSeconds(10));
 * ...
 * UNDECODABLE.warn("undecodable COMPOUND from {}: {}", remote, e.toString());
 * // written: "undecodable COMPOUND from /10.0.0.7:812: ... (1234 more like this suppressed)"
 * }</pre>
 *
 * <p>Use one instance per kind of line (a constant next to the logger), not per client: its memory is a few
 * fields whatever the traffic. Thread-safe.
 */
public final class RateLimitedLog {
    private final Logger logger;
    private final int lines;
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private long windowStart;
    private boolean started;
    private int writtenInWindow;
    private long pendingSuppressed;
    private long totalSuppressed;

    RateLimitedLog(Logger logger, int lines, Duration interval, LongSupplier nanoClock) {
        this.logger = Objects.requireNonNull(logger, "logger");
        if (lines < 1 || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("need at least one line per positive interval");
        }
        this.lines = lines;
        this.intervalNanos = interval.toNanos();
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    /** At most {@code lines} lines of this kind per {@code interval} go to {@code logger}. */
    public static RateLimitedLog of(Logger logger, int lines, Duration interval) {
        return new RateLimitedLog(logger, lines, interval, System::nanoTime);
    }

    /** Logs at WARN unless this kind of line has used its share of the interval. */
    public void warn(String format, Object... args) {
        long suppressed = admit();
        if (suppressed >= 0 && logger.isWarnEnabled()) {
            logger.warn(withCount(format, suppressed), withCount(args, suppressed));
        }
    }

    /** Logs at INFO unless this kind of line has used its share of the interval. */
    public void info(String format, Object... args) {
        long suppressed = admit();
        if (suppressed >= 0 && logger.isInfoEnabled()) {
            logger.info(withCount(format, suppressed), withCount(args, suppressed));
        }
    }

    /** Logs at ERROR unless this kind of line has used its share of the interval. */
    public void error(String format, Object... args) {
        long suppressed = admit();
        if (suppressed >= 0 && logger.isErrorEnabled()) {
            logger.error(withCount(format, suppressed), withCount(args, suppressed));
        }
    }

    /** How many lines were left out since this was made. */
    public synchronized long suppressedTotal() {
        return totalSuppressed;
    }

    /**
     * Whether a line may be written now: -1 if not (it is counted), else how many were left out since the
     * last line written.
     */
    synchronized long admit() {
        long now = nanoClock.getAsLong();
        if (!started || now - windowStart >= intervalNanos) {
            started = true;
            windowStart = now;
            writtenInWindow = 0;
        }
        if (writtenInWindow >= lines) {
            pendingSuppressed++;
            totalSuppressed++;
            return -1;
        }
        writtenInWindow++;
        long suppressed = pendingSuppressed;
        pendingSuppressed = 0;
        return suppressed;
    }

    static String withCount(String format, long suppressed) {
        return suppressed == 0 ? format : format + " ({} more like this suppressed)";
    }

    /** The arguments with the count added, before a trailing throwable (which SLF4J prints as a stack trace). */
    static Object[] withCount(Object[] args, long suppressed) {
        if (suppressed == 0) {
            return args;
        }
        Object[] out = Arrays.copyOf(args, args.length + 1);
        if (args.length > 0 && args[args.length - 1] instanceof Throwable t) {
            out[args.length - 1] = suppressed;
            out[args.length] = t;
        } else {
            out[args.length] = suppressed;
        }
        return out;
    }
}
