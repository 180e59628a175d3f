package org.tcnfs.server.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.tcnfs.txn.SpanningLimits;
import java.util.Optional;
import java.util.OptionalInt;
import org.tcnfs.nfs4.export.ExportOptions;
import org.tcnfs.nfs4.state.SessionLimits;

/**
 * The server's validated configuration (see {@link Setting} for what each value means).
 *
 * @param bind address to listen on
 * @param port TCP port, 0 for any free one
 * @param data the directory exported as / without an exports file
 * @param state the state directory
 * @param exports the exports file, if any
 * @param lease lease time
 * @param grace grace period
 * @param maxOps most operations per COMPOUND
 * @param maxRequestBytes largest request
 * @param maxIoBytes largest READ and WRITE
 * @param workers worker threads
 * @param portFile where to write the port once listening, if anywhere
 * @param metricsPort TCP port of the HTTP endpoints (0 for any free one), empty when they are off
 * @param metricsPortFile where to write the metrics port once listening, if anywhere
 * @param dataOptions the options of the default export of {@code data} (not used with an exports file)
 * @param backupBudgetPerTxn most allocated bytes of one transaction's backups
 * @param backupBudgetTotal most allocated bytes of all transactions' backups together
 * @param sessionLimits bounds of clients, sessions, reply caches and NFSv4.0 owners
 * @param rpcBufferBudget most bytes of RPC requests held in memory at once, over all connections
 * @param rpcIdleTimeout how long a partly received request may wait for its next byte
 * @param rpcReplyBudget most bytes of replies not yet sent, over all connections
 * @param spanningLimits the bounds of transactions that span compounds
 * @param backupDiskReserve free bytes of an export's file system that backups may not take
 * @param asyncPendingRows most handle rows of plain compounds on async exports kept in memory (0: none)
 * @param maxConnections most TCP connections open at once
 */
public record ServerConfig(
        String bind,
        int port,
        Path data,
        Path state,
        Optional<Path> exports,
        Duration lease,
        Duration grace,
        int maxOps,
        int maxRequestBytes,
        int maxIoBytes,
        int workers,
        Optional<Path> portFile,
        OptionalInt metricsPort,
        Optional<Path> metricsPortFile,
        ExportOptions dataOptions,
        long backupBudgetPerTxn,
        long backupBudgetTotal,
        SessionLimits sessionLimits,
        long rpcBufferBudget,
        Duration rpcIdleTimeout,
        long rpcReplyBudget,
        SpanningLimits spanningLimits,
        long backupDiskReserve,
        int asyncPendingRows,
        int maxConnections) {

    /** Default of {@link #backupBudgetPerTxn()} ({@link Setting#BACKUP_BUDGET_PER_TXN}): 1 GiB. */
    public static final long DEFAULT_BACKUP_BUDGET_PER_TXN = 1L << 30;
    /** Default of {@link #backupBudgetTotal()} ({@link Setting#BACKUP_BUDGET_TOTAL}): 4 GiB. */
    public static final long DEFAULT_BACKUP_BUDGET_TOTAL = 4L << 30;
    /** Default of {@link #backupDiskReserve()} ({@link Setting#BACKUP_DISK_RESERVE}): 64 MiB. */
    public static final long DEFAULT_BACKUP_DISK_RESERVE = 64L << 20;
    /** Default of {@link #asyncPendingRows()} ({@link Setting#ASYNC_PENDING_ROWS}). */
    public static final int DEFAULT_ASYNC_PENDING_ROWS = 32_768;
    /** Default of {@link #rpcBufferBudget()}. */
    public static final long DEFAULT_RPC_BUFFER_BUDGET = 64L << 20;
    /** Default of {@link #rpcIdleTimeout()}. */
    public static final Duration DEFAULT_RPC_IDLE_TIMEOUT = Duration.ofSeconds(60);
    /** Default of {@link #rpcReplyBudget()}. */
    public static final long DEFAULT_RPC_REPLY_BUDGET = 64L << 20;

    /** Default of {@link #maxConnections()} ({@link Setting#MAX_CONNECTIONS}). */
    public static final int DEFAULT_MAX_CONNECTIONS = 4096;

    /**
     * A configuration with the default {@link #asyncPendingRows()} and {@link #maxConnections()} (the form before
     * they existed).
     */
    public ServerConfig(String bind, int port, Path data, Path state, Optional<Path> exports, Duration lease,
            Duration grace, int maxOps, int maxRequestBytes, int maxIoBytes, int workers, Optional<Path> portFile,
            OptionalInt metricsPort, Optional<Path> metricsPortFile, ExportOptions dataOptions,
            long backupBudgetPerTxn, long backupBudgetTotal, SessionLimits sessionLimits, long rpcBufferBudget,
            Duration rpcIdleTimeout, long rpcReplyBudget, SpanningLimits spanningLimits, long backupDiskReserve) {
        this(bind, port, data, state, exports, lease, grace, maxOps, maxRequestBytes, maxIoBytes, workers, portFile,
                metricsPort, metricsPortFile, dataOptions, backupBudgetPerTxn, backupBudgetTotal, sessionLimits,
                rpcBufferBudget, rpcIdleTimeout, rpcReplyBudget, spanningLimits, backupDiskReserve,
                DEFAULT_ASYNC_PENDING_ROWS, DEFAULT_MAX_CONNECTIONS);
    }

    public ServerConfig {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(exports, "exports");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(portFile, "portFile");
        Objects.requireNonNull(metricsPort, "metricsPort");
        Objects.requireNonNull(metricsPortFile, "metricsPortFile");
        Objects.requireNonNull(dataOptions, "dataOptions");
        Objects.requireNonNull(sessionLimits, "sessionLimits");
        Objects.requireNonNull(rpcIdleTimeout, "rpcIdleTimeout");
        Objects.requireNonNull(spanningLimits, "spanningLimits");
        if (rpcBufferBudget < 1 || rpcReplyBudget < 1 || rpcIdleTimeout.isNegative() || rpcIdleTimeout.isZero()) {
            throw new IllegalArgumentException("RPC buffer budget and idle timeout must be positive");
        }
        if (metricsPort.isPresent() && (metricsPort.getAsInt() < 0 || metricsPort.getAsInt() > 65535)) {
            throw new IllegalArgumentException("metrics port out of range: " + metricsPort.getAsInt());
        }
        if (asyncPendingRows < 0) {
            throw new IllegalArgumentException("negative async-pending-rows: " + asyncPendingRows);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("max connections must be positive: " + maxConnections);
        }
        if (backupDiskReserve < 0) {
            throw new IllegalArgumentException("negative backup disk reserve: " + backupDiskReserve);
        }
        if (backupBudgetPerTxn < 0 || backupBudgetTotal < backupBudgetPerTxn) {
            throw new IllegalArgumentException("backup budgets must be 0 <= per transaction (" + backupBudgetPerTxn
                    + ") <= total (" + backupBudgetTotal + ")");
        }
    }

    /** A configuration without the HTTP endpoints (the form before they existed). */
    public ServerConfig(String bind, int port, Path data, Path state, Optional<Path> exports, Duration lease,
            Duration grace, int maxOps, int maxRequestBytes, int maxIoBytes, int workers, Optional<Path> portFile) {
        this(bind, port, data, state, exports, lease, grace, maxOps, maxRequestBytes, maxIoBytes, workers, portFile,
                OptionalInt.empty(), Optional.empty());
    }

    /**
     * A configuration whose default export has the default options ({@link ExportOptions#DEFAULT_EXPORT}) and
     * whose other limits (backup budgets and disk reserve, {@link SessionLimits}, the RPC buffer budget, idle timeout and reply budget) have their
     * defaults.
     */
    public ServerConfig(String bind, int port, Path data, Path state, Optional<Path> exports, Duration lease,
            Duration grace, int maxOps, int maxRequestBytes, int maxIoBytes, int workers, Optional<Path> portFile,
            OptionalInt metricsPort, Optional<Path> metricsPortFile) {
        this(bind, port, data, state, exports, lease, grace, maxOps, maxRequestBytes, maxIoBytes, workers, portFile,
                metricsPort, metricsPortFile, ExportOptions.DEFAULT_EXPORT, DEFAULT_BACKUP_BUDGET_PER_TXN,
                DEFAULT_BACKUP_BUDGET_TOTAL, SessionLimits.DEFAULTS, DEFAULT_RPC_BUFFER_BUDGET,
                DEFAULT_RPC_IDLE_TIMEOUT, DEFAULT_RPC_REPLY_BUDGET, SpanningLimits.DEFAULT,
                DEFAULT_BACKUP_DISK_RESERVE, DEFAULT_ASYNC_PENDING_ROWS, DEFAULT_MAX_CONNECTIONS);
    }
}
