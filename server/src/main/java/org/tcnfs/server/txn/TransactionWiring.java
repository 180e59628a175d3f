package org.tcnfs.server.txn;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
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
import org.tcnfs.txn.lock.LockMode;

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
    /** The backup areas created, by directory: reused when a reload changes an export's options. */
    private final Map<Path, BackupStore> areas;
    private final Collection<BackupStore> backups;
    private final BackupBudget budget;
    private final InlineChangeGuard inlineChanges;

    private TransactionWiring(TransactionHook hook, LockManager locks, Map<Path, BackupStore> areas,
            BackupBudget budget, InlineChangeGuard inlineChanges) {
        this.hook = hook;
        this.locks = locks;
        this.areas = areas;
        this.backups = areas.values();
        this.budget = budget;
        this.inlineChanges = inlineChanges;
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
        Map<Path, BackupStore> areas = new ConcurrentHashMap<>();
        BackupBudget budget = new BackupBudget(config.backupBudgetPerTxn(), config.backupBudgetTotal(),
                config.backupDiskReserve());
        for (int i = 0; i < exports.size(); i++) {
            txnExports.add(txnExport(exports.get(i), fileSystems.get(i), single, budget, areas));
        }
        LockManager locks = new LockManager();
        TransactionHook hook = new TransactionHook(txnExports, handles, locks, LOCK_TIMEOUT,
                CrashPoints.fromSystemProperties(), config.spanningLimits());
        InlineChangeGuard inlineChanges = new InlineChangeGuard(handles);
        for (int i = 0; i < exports.size(); i++) {
            inlineChanges.put(fileSystems.get(i).exportId(), exports.get(i));
        }
        builder.hook(hook).transactions(() -> true).spanningTransactions(hook.spanningTransactions())
                // a compound run on the network thread must not wait there for a lock (a transaction spanning
                // compounds holds its locks while no worker runs) or for the flush of a compound released early
                .inlineAllowed(() -> locks.keysInUse() == 0 && locks.flushingNow() == 0)
                .inlineChanges(inlineChanges);
        return new TransactionWiring(hook, locks, areas, budget, inlineChanges);
    }

    /**
     * Whether no client may change anything on {@code export}: every rule is {@code ro}. Such an export gets
     * no backup area ({@value LocalFileSystem#RESERVED_NAME} is not created), so it may be a read-only
     * directory or mount; its transactions only read.
     */
    public static boolean isReadOnly(Export export) {
        return export.rules().stream().allMatch(r -> r.options().isReadOnly());
    }

    /**
     * The backup area an export's transactions use: created for a writable export, taken as it is (perhaps
     * missing) for a read-only one ({@link #isReadOnly}).
     *
     * @throws IOException if a writable export's area cannot be created
     */
    private static BackupStore backupArea(Export export, LocalFileSystem fs, BackupBudget budget,
            Map<Path, BackupStore> created) throws IOException {
        Path area = fs.root().resolve(LocalFileSystem.RESERVED_NAME).resolve(BACKUP_AREA);
        if (isReadOnly(export)) {
            BackupStore before = created.get(area);
            return before != null ? before : BackupStore.existing(area, budget);
        }
        BackupStore before = created.get(area);
        if (before != null) {
            return before;
        }
        BackupStore store = BackupStore.open(fs.reservedDirectory().resolve(BACKUP_AREA), budget);
        created.put(area, store);
        return store;
    }

    private static TxnExport txnExport(Export export, LocalFileSystem fs, boolean atPseudoRoot, BackupBudget budget,
            Map<Path, BackupStore> created) throws IOException {
        BackupStore backups = backupArea(export, fs, budget, created);
        LOG.info("transactions on export {} ({}): policy per client rule {}, {}", export.path(), fs.root(),
                export.rules(), isReadOnly(export) ? "read-only: no backups" : "backups in " + backups.root());
        return new TxnExport(fs.exportId(), fs, fs.root(), backups, atPseudoRoot,
                client -> export.optionsFor(client).map(ExportOptions::txn).orElse(TxnPolicy.NEVER),
                export.path());
    }

    /**
     * Adds an export of a reloaded exports file, or replaces the transaction settings of one already
     * served ({@code txn=} policies, read-only or not, {@code async} for the choice of what runs inline): compounds
     * that start from now on use them.
     *
     * @throws IOException if a writable export's backup area cannot be created (nothing changed then)
     */
    public void putExport(Export export, LocalFileSystem fs) throws IOException {
        hook.putExport(txnExport(export, fs, false, budget, areas));
        inlineChanges.put(fs.exportId(), export);
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
        count(metrics, "tcnfs.txn.light", "Transactional compounds committed on the light path (one change atomic "
                + "by itself: no durable backups, no recovery record)", hook, TransactionHook::lightCommits);
        count(metrics, "tcnfs.txn.light.rollbacks", "Light-path compounds rolled back after preparing their undo "
                + "(record written before the undo)", hook, TransactionHook::lightRollbacks);
        count(metrics, "tcnfs.txn.undo.failures", "Rollbacks whose undo failed (record kept)", hook,
                TransactionHook::undoFailures);
        count(metrics, "tcnfs.txn.state.restore.failures",
                "Open and lock states a rollback could not put back as they were (each logged at ERROR)", hook,
                TransactionHook::stateRestoreFailures);
        count(metrics, "tcnfs.txn.lock.wait.seconds", "Time compounds waited for their locks", locks,
                l -> l.waitNanos() / 1e9);
        count(metrics, "tcnfs.txn.lock.timeouts", "Lock acquisitions that timed out", locks, LockManager::timeouts);
        for (LockManager.KeyRole role : LockManager.KeyRole.values()) {
            for (LockMode mode : LockMode.values()) {
                String[] tags = {"key", role.name().toLowerCase(java.util.Locale.ROOT),
                    "mode", mode.name().toLowerCase(java.util.Locale.ROOT)};
                FunctionCounter.builder("tcnfs.txn.lock.blocked", locks, l -> l.blockedWaits(role, mode))
                        .description("Times a compound waited for a key held by another, by what the key is to it "
                                + "(export_root, directory, name, object) and the mode it wanted")
                        .tags(tags).register(metrics.registry());
                FunctionCounter.builder("tcnfs.txn.lock.blocked.seconds", locks,
                                l -> l.blockedNanos(role, mode) / 1e9)
                        .description("Time compounds waited for keys held by others, by key and mode")
                        .tags(tags).register(metrics.registry());
            }
        }
        Gauge.builder("tcnfs.txn.lock.keys", locks, LockManager::keysInUse)
                .description("Lock keys held or waited for now (0 when no compound runs and no transaction that "
                        + "spans compounds is open)").register(metrics.registry());
        count(metrics, "tcnfs.txn.lock.waitdie", "Lock requests that died rather than wait for an older transaction "
                + "that spans compounds", locks, LockManager::waitDies);
        count(metrics, "tcnfs.txn.lock.quiet.reads", "Plain read-only compounds run without locks while no compound "
                + "held or waited for a WRITE lock", locks, LockManager::quietReads);
        count(metrics, "tcnfs.txn.plan.unchecked", "Compounds whose plan was not checked again once locked: the "
                + "handle table had not changed since planning began", hook, TransactionHook::plansUnchecked);
        count(metrics, "tcnfs.txn.plan.rechecked", "Compounds whose plan was checked again once locked (the handle "
                + "table had changed since planning began)", hook, TransactionHook::plansRechecked);
        count(metrics, "tcnfs.txn.lock.early.releases", "Plain compounds that released their locks before their "
                + "flushes (early lock release)", locks, LockManager::earlyReleases);
        count(metrics, "tcnfs.txn.lock.commit.dependencies", "Compounds released early, not durable yet, whose keys "
                + "a later compound took (it replies only after they are durable)", locks, LockManager::dependencies);
        count(metrics, "tcnfs.txn.spanning.commits", "Transactions that span compounds committed", hook,
                TransactionHook::spanningCommits);
        count(metrics, "tcnfs.txn.spanning.aborts", "Transactions that span compounds rolled back", hook,
                TransactionHook::spanningAborts);
        Gauge.builder("tcnfs.txn.spanning.open", hook, TransactionHook::spanningOpen)
                .description("Transactions that span compounds open now").register(metrics.registry());
        Gauge.builder("tcnfs.txn.spanning.held.ops", hook, TransactionHook::spanningHeldOps)
                .description("Operations the compounds of the open transactions that span compounds hold "
                        + "(bounded by txn-held-ops)").register(metrics.registry());
        count(metrics, "tcnfs.txn.spanning.held.ops.refusals", "Compounds of transactions that span compounds "
                + "refused because the open ones would hold more operations than txn-held-ops", hook,
                TransactionHook::spanningHeldOpsRefusals);
        count(metrics, "tcnfs.txn.backup.cloned.bytes", "Bytes backed up by FICLONERANGE", backups,
                b -> b.stream().mapToLong(BackupStore::bytesCloned).sum());
        count(metrics, "tcnfs.txn.backup.copied.bytes", "Bytes backed up by copying", backups,
                b -> b.stream().mapToLong(BackupStore::bytesCopied).sum());
        count(metrics, "tcnfs.txn.backup.budget.refusals", "Transactions refused (NFS4ERR_NOSPC) because their "
                + "backups would exceed a backup budget or the free disk space less backup-disk-reserve", budget, BackupBudget::refusals);
        Gauge.builder("tcnfs.txn.backup.budget.used.bytes", budget, BackupBudget::used)
                .description("Allocated bytes held by the backups of running transactions")
                .register(metrics.registry());
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
