package org.tcnfs.server.txn;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.tcnfs.recovery.ExportArea;
import org.tcnfs.recovery.RecoveryException;
import org.tcnfs.recovery.RecoveryReport;
import org.tcnfs.recovery.RecoveryService;
import org.tcnfs.server.fs.LocalFileSystem;
import org.tcnfs.txn.CrashPoints;
import org.tcnfs.txn.TransactionHook;
import org.tcnfs.txn.backup.BackupBudget;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.handles.HandleSnapshot;
import org.tcnfs.txn.handles.HandleTable;

/**
 * Runs {@link RecoveryService} for the server's exports: {@link #recover} at start, before the NFS service
 * accepts requests, and {@link #check} for {@code --check}. Each export's backups live in
 * {@code <export>/.tcnfs/txn}, where {@link TransactionWiring} puts them.
 */
public final class StartupRecovery {

    private StartupRecovery() {
    }

    /**
     * Undoes every interrupted transaction and removes orphan backups.
     *
     * @throws IOException if a record cannot be read or undone (the server must not start)
     */
    public static RecoveryReport recover(HandleTable handles, List<LocalFileSystem> fileSystems) throws IOException {
        try {
            return service(handles, fileSystems).recover();
        } catch (RecoveryException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * Reports pending records (damaged ones with their error) and orphan backups without changing them.
     *
     * @throws IOException if an export's backup area cannot be opened
     */
    public static RecoveryReport check(HandleTable handles, List<LocalFileSystem> fileSystems) throws IOException {
        return service(handles, fileSystems).check();
    }

    /**
     * Like {@link #check}, over backup areas the caller opened ({@code --check} opens only those that exist).
     */
    public static RecoveryReport checkAreas(HandleTable handles, List<ExportArea> areas) {
        return new RecoveryService(handles, areas, CrashPoints.fromSystemProperties()).check();
    }

    /** The number of recovery records in the handle table now. */
    public static int pendingRecords(HandleTable handles) {
        AtomicInteger count = new AtomicInteger();
        try (HandleSnapshot snapshot = handles.read()) {
            snapshot.forEach(handles.sideTable(TransactionHook.RECORDS_TABLE), (k, v) -> count.incrementAndGet());
        }
        return count.get();
    }

    /** The report as lines for an operator. */
    public static List<String> describe(RecoveryReport report) {
        List<String> lines = new ArrayList<>();
        lines.add(report.pending().size() + " pending recovery record(s), " + report.orphanBackups().size()
                + " orphan backup director" + (report.orphanBackups().size() == 1 ? "y" : "ies"));
        for (RecoveryReport.Pending p : report.pending()) {
            lines.add("  txn " + p.txnId() + " export " + p.exportId() + " started " + p.started() + " tag \""
                    + p.tag() + "\" ops " + p.opCount() + " steps " + p.steps() + " undone " + p.undoneSteps()
                    + " failed attempts " + p.undoAttempts() + p.lastUndoError().map(e -> " last error: " + e).orElse(""));
        }
        report.orphanBackups().forEach(o -> lines.add("  orphan backup " + o));
        return lines;
    }

    private static RecoveryService service(HandleTable handles, List<LocalFileSystem> fileSystems) throws IOException {
        List<ExportArea> areas = new ArrayList<>();
        for (LocalFileSystem fs : fileSystems) {
            // an export without a backup area has nothing to recover; none is created here (a read-only export
            // never gets one, a writable one gets it from TransactionWiring)
            Path area = fs.root().resolve(LocalFileSystem.RESERVED_NAME).resolve(TransactionWiring.BACKUP_AREA);
            BackupStore backups = Files.isDirectory(area) ? BackupStore.open(area)
                    : BackupStore.existing(area, BackupBudget.unlimited());
            areas.add(new ExportArea(fs.exportId(), fs.root(), backups));
        }
        return new RecoveryService(handles, areas, CrashPoints.fromSystemProperties());
    }
}
