package org.tcnfs.server.txn;

import io.micrometer.core.instrument.FunctionCounter;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.rpc.NfsServer;
import org.tcnfs.server.config.ServerConfig;
import org.tcnfs.server.fs.LocalFileSystem;
import org.tcnfs.server.metrics.TcnfsMetrics;
import org.tcnfs.txn.CrashPoints;
import org.tcnfs.txn.TransactionHook;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.lock.LockManager;

/**
 * Installs transactional compounds into an {@link NfsServer.Builder} (see the package documentation).
 * {@link #registerMetrics} exposes the transaction counters; {@link #close()} stops the hook's background
 * cleaner.
 */
public final class TransactionWiring implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionWiring.class);

    /** How long a compound waits for its locks before NFS4ERR_DELAY. */
    public static final Duration LOCK_TIMEOUT = Duration.ofSeconds(10);

    /** The backup area's directory inside an export's reserved directory. */
    public static final String BACKUP_AREA = "txn";

    private final TransactionHook hook;
    private final LockManager locks;
    private final BackupStore backups;

    private TransactionWiring(TransactionHook hook, LockManager locks, BackupStore backups) {
        this.hook = hook;
        this.locks = locks;
        this.backups = backups;
    }

    /**
     * Adds the transaction hook and accepts the transaction flag when the server exports one directory at
     * "/" (no exports file); otherwise changes nothing and logs that transactions are off.
     *
     * @param builder the NFS server being built
     * @param config the server's configuration
     * @param handles the handle table
     * @param fileSystems the exports' file systems, as opened
     * @return the wiring (to close on shutdown), with no hook when transactions are off
     * @throws IOException if the backup area cannot be created
     */
    public static TransactionWiring install(NfsServer.Builder builder, ServerConfig config, HandleTable handles,
            List<LocalFileSystem> fileSystems) throws IOException {
        Objects.requireNonNull(builder, "builder");
        if (config.exports().isPresent() || fileSystems.size() != 1) {
            LOG.info("transactional compounds (procedure 0x80000001) are off: only the default single export "
                    + "at / supports them so far; the flag is answered with PROC_UNAVAIL");
            return new TransactionWiring(null, null, null);
        }
        LocalFileSystem fs = fileSystems.get(0);
        BackupStore backups = BackupStore.open(fs.reservedDirectory().resolve(BACKUP_AREA));
        LockManager locks = new LockManager();
        TransactionHook hook = new TransactionHook(fs, fs.root(), fs.exportId(), handles, locks, backups,
                LOCK_TIMEOUT, fs::reattach, CrashPoints.fromSystemProperties());
        builder.hook(hook).transactions(() -> true);
        LOG.info("transactional compounds (procedure 0x80000001) on for export / ({}), backups in {}", fs.root(),
                backups.root());
        return new TransactionWiring(hook, locks, backups);
    }

    /**
     * Registers the counters of the transaction layer (nothing when transactions are off): commits,
     * rollbacks, undo failures, lock wait time, backup bytes cloned and copied.
     */
    public void registerMetrics(TcnfsMetrics metrics) {
        if (hook == null) {
            return;
        }
        count(metrics, "tcnfs.txn.commits", "Transactional compounds committed", hook, TransactionHook::commits);
        count(metrics, "tcnfs.txn.rollbacks", "Transactional compounds rolled back", hook, TransactionHook::rollbacks);
        count(metrics, "tcnfs.txn.undo.failures", "Rollbacks whose undo failed (record kept)", hook,
                TransactionHook::undoFailures);
        count(metrics, "tcnfs.txn.lock.wait.seconds", "Time compounds waited for their locks", locks,
                l -> l.waitNanos() / 1e9);
        count(metrics, "tcnfs.txn.lock.timeouts", "Lock acquisitions that timed out", locks, LockManager::timeouts);
        count(metrics, "tcnfs.txn.backup.cloned.bytes", "Bytes backed up by FICLONERANGE", backups,
                BackupStore::bytesCloned);
        count(metrics, "tcnfs.txn.backup.copied.bytes", "Bytes backed up by copying", backups,
                BackupStore::bytesCopied);
    }

    private static <T> void count(TcnfsMetrics metrics, String name, String help, T source,
            ToDoubleFunction<T> value) {
        FunctionCounter.builder(name, source, value).description(help).register(metrics.registry());
    }

    /** Stops the background cleaner; harmless twice or when transactions are off. */
    @Override
    public void close() {
        if (hook != null) {
            hook.close();
        }
    }
}
