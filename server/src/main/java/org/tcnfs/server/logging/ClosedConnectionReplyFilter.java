package org.tcnfs.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.time.Duration;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.tcnfs.nfs4.log.RateLimitedLog;

/**
 * oncrpc4j logs an ERROR for every reply it cannot send ({@code "Failed to send RPC to {} : {}"}, logger
 * {@code org.dcache.oncrpc4j.rpc.RpcCall}), which is what happens whenever a client closes its connection before
 * its reply is written: a client that does so on purpose fills the log. This filter drops those lines and
 * writes instead one WARN line of its own (logger {@code org.tcnfs.server.logging.ClosedConnectionReplyFilter})
 * at most once per 10 s, naming the last client and saying how many were left out. Other lines pass untouched.
 *
 * <p>Named as a {@code turboFilter} in the server's {@code logback.xml}. Thread-safe.
 */
public final class ClosedConnectionReplyFilter extends TurboFilter {
    /** The logger oncrpc4j's line comes from. */
    static final String ONCRPC_CALL_LOGGER = "org.dcache.oncrpc4j.rpc.RpcCall";
    /** The start of the line's format. */
    static final String SEND_FAILED = "Failed to send RPC to";

    private final RateLimitedLog unsent = RateLimitedLog.of(
            LoggerFactory.getLogger(ClosedConnectionReplyFilter.class), 1, Duration.ofSeconds(10));

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
            Throwable t) {
        if (level != Level.ERROR || format == null || !format.startsWith(SEND_FAILED)
                || !ONCRPC_CALL_LOGGER.equals(logger.getName())) {
            return FilterReply.NEUTRAL;
        }
        Object client = params != null && params.length > 0 ? params[0] : "?";
        Object cause = params != null && params.length > 1 ? params[1] : "?";
        unsent.warn("a reply to {} was not sent: {} (its client closed the connection before the reply; such "
                + "lines are written at most once per 10 s)", client, cause);
        return FilterReply.DENY;
    }
}
