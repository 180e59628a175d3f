package org.tcnfs.server.txn;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.export.Export;
import org.tcnfs.nfs4.export.ExportOptions;
import org.tcnfs.nfs4.export.ExportOptions.TxnPolicy;
import org.tcnfs.nfs4.rpc.NfsServer;
import org.tcnfs.server.config.ServerConfig;
import org.tcnfs.server.fs.LocalFileSystem;
import org.tcnfs.server.metrics.TcnfsMetrics;
import org.tcnfs.txn.CrashPoints;
import org.tcnfs.txn.TransactionHook;
import org.tcnfs.txn.TxnExport;
import org.tcnfs.txn.backup.BackupBudget;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.lock.LockManager;

/**
 * Installs transactional compounds into an {@link NfsServer.Builder} (see the package documentation).
 * {@link #registerMetrics} exposes the transaction counters; {@link #close()} drains the compounds in flight
 * and stops the hook's background cleaner.
 */
public final class TransactionWiring implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionWiring.class);

    /** How long a compound waits for its locks before NFS4ERR_DELAY. */
    public static final Duration LOCK_TIMEOUT = Duration.ofSeconds(10);

    /** The backup area's directory inside an export's reserved directory. */
    public static final String BACKUP_AREA = "txn";

    private final TransactionHook hook;
    private final LockManager locks;
    private final List<BackupStore> backups;

    private TransactionWiring(TransactionHook hook, LockManager locks, List<BackupStore> backups) {
        this.hook = hook;
        this.locks = locks;
        this.backups = List.copyOf(backups);
    }

    /**
     * Adds the transaction hook for every export and accepts the transaction flag. Each export's
     * {@code txn=} option (from the client's matching rule; the default export: {@code request}) decides
     * whether a compound runs as a transaction there.
     *
     * @param builder the NFS server being built
     * @param config the server's configuration
     * @param handles the handle table
     * @param exports the exports, in the order of {@code fileSystems}
     * @param fileSystems the exports' file systems, as opened
     * @return the wiring, to close on shutdown
     * @throws IOException if a backup area cannot be created
     */
    public static TransactionWiring install(NfsServer.Builder builder, ServerConfig config, HandleTable handles,
            List<Export> exports, List<LocalFileSystem> fileSystems) throws IOException {
        Objects.requireNonNull(builder, "builder");
        if (exports.size() != fileSystems.size()) {
            throw new IllegalArgumentException(exports.size() + " exports but " + fileSystems.size() + " file systems");
        }
        boolean single = config.exports().isEmpty();
        List<TxnExport> txnExports = new ArrayList<>();
        List<BackupStore> areas = new ArrayList<>();
        BackupBudget budget = new BackupBudget(config.backupBudgetPerTxn(), config.backupBudgetTotal());
        for (int i = 0; i < exports.size(); i++) {
            Export export = exports.get(i);
            LocalFileSystem fs = fileSystems.get(i);
            BackupStore backups = BackupStore.open(fs.reservedDirectory().resolve(BACKUP_AREA), budget);
            areas.add(backups);
            txnExports.add(new TxnExport(fs.exportId(), fs, fs.root(), backups, single,
                    client -> export.optionsFor(client).map(ExportOptions::txn).orElse(TxnPolicy.NEVER),
                    export.path()));
            LOG.info("transactions on export {} ({}): policy per client rule {}, backups in {}", export.path(),
                    fs.root(), export.rules(), backups.root());
        }
        LockManager locks = new LockManager();
        TransactionHook hook = new TransactionHook(txnExports, handles, locks, LOCK_TIMEOUT,
                CrashPoints.fromSystemProperties());
        builder.hook(hook).transactions(() -> true);
        return new TransactionWiring(hook, locks, areas);
    }

    /**
     * Registers the counters of the transaction layer (nothing when transactions are off): commits,
     * rollbacks, undo failures, open and lock states not restored, lock wait time, backup bytes cloned and copied.
     */
    public void registerMetrics(TcnfsMetrics metrics) {
        if (hook == null) {
            return;
        }
        count(metrics, "tcnfs.txn.commits", "Transactional compounds committed", hook, TransactionHook::commits);
        count(metrics, "tcnfs.txn.rollbacks", "Transactional compounds rolled back", hook, TransactionHook::rollbacks);
        count(metrics, "tcnfs.txn.undo.failures", "Rollbacks whose undo failed (record kept)", hook,
                TransactionHook::undoFailures);
        count(metrics, "tcnfs.txn.state.restore.failures",
                "Open and lock states a rollback could not put back as they were (each logged at ERROR)", hook,
                TransactionHook::stateRestoreFailures);
        count(metrics, "tcnfs.txn.lock.wait.seconds", "Time compounds waited for their locks", locks,
                l -> l.waitNanos() / 1e9);
        count(metrics, "tcnfs.txn.lock.timeouts", "Lock acquisitions that timed out", locks, LockManager::timeouts);
        count(metrics, "tcnfs.txn.backup.cloned.bytes", "Bytes backed up by FICLONERANGE", backups,
                b -> b.stream().mapToLong(BackupStore::bytesCloned).sum());
        count(metrics, "tcnfs.txn.backup.copied.bytes", "Bytes backed up by copying", backups,
                b -> b.stream().mapToLong(BackupStore::bytesCopied).sum());
        if (!backups.isEmpty()) {
            BackupBudget budget = backups.get(0).budget();
            count(metrics, "tcnfs.txn.backup.budget.refusals", "Transactions refused (NFS4ERR_NOSPC) because their "
                    + "backups would exceed a backup budget", budget, BackupBudget::refusals);
            Gauge.builder("tcnfs.txn.backup.budget.used.bytes", budget, BackupBudget::used)
                    .description("Allocated bytes held by the backups of running transactions")
                    .register(metrics.registry());
        }
    }

    private static <T> void count(TcnfsMetrics metrics, String name, String help, T source,
            ToDoubleFunction<T> value) {
        FunctionCounter.builder(name, source, value).description(help).register(metrics.registry());
    }

    /**
     * Stops taking new compounds, drains those in flight (bounded, {@link TransactionHook#DRAIN_TIMEOUT}), then
     * stops the background cleaner; harmless twice or when transactions are off.
     */
    @Override
    public void close() {
        if (hook != null) {
            hook.close();
        }
    }
}
