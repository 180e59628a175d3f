package org.tcnfs.recovery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.proto.InvalidRecordException;
import org.tcnfs.proto.RecoveryRecord;
import org.tcnfs.proto.RecoveryRecords;
import org.tcnfs.txn.CrashPoints;
import org.tcnfs.txn.TransactionHook;
import org.tcnfs.txn.handles.HandleSnapshot;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.SideTable;
import org.tcnfs.txn.undo.UndoExecutor;

/**
 * Undoes every transaction a crash interrupted, before the server serves (see the package documentation).
 * For each record: undo its steps last to first (resuming where an earlier attempt stopped), fsync, delete
 * the record in a durable LMDB commit, log one line (id, steps undone, time). Then every backup directory
 * that no remaining record refers to is deleted. A record that cannot be decoded, or whose undo fails,
 * stops recovery with a {@link RecoveryException}: the record stays, and the server must not start.
 * Records of an export that is not configured any more are left alone (logged; {@link #check()} lists
 * them).
 */
public final class RecoveryService {
    private static final Logger LOG = LoggerFactory.getLogger(RecoveryService.class);

    private final HandleTable handles;
    private final SideTable records;
    private final Map<String, ExportArea> exports = new LinkedHashMap<>();
    private final CrashPoints crashPoints;

    /**
     * @param handles the handle table holding the records
     * @param exports the configured exports
     * @param crashPoints crash injection ({@code mid-recovery-N}); {@link CrashPoints#NONE} in production
     */
    public RecoveryService(HandleTable handles, List<ExportArea> exports, CrashPoints crashPoints) {
        this.handles = Objects.requireNonNull(handles, "handles");
        this.records = handles.sideTable(TransactionHook.RECORDS_TABLE);
        exports.forEach(e -> this.exports.put(e.exportId(), e));
        this.crashPoints = Objects.requireNonNull(crashPoints, "crashPoints");
    }

    /**
     * Recovers every record of a configured export and removes orphan backups.
     *
     * @throws RecoveryException if a record is damaged or its undo fails (it stays in LMDB)
     */
    public RecoveryReport recover() throws RecoveryException {
        long start = System.nanoTime();
        List<RecoveryReport.Recovered> recovered = new ArrayList<>();
        // Newest first: the compounds of a transaction that spans compounds are undone in reverse order (their
        // record ids grow compound by compound); records of different transactions touch disjoint objects
        // (they held their locks together), so their order does not matter.
        List<Map.Entry<Long, byte[]>> newestFirst = new ArrayList<>(storedRecords().entrySet());
        java.util.Collections.reverse(newestFirst);
        for (Map.Entry<Long, byte[]> stored : newestFirst) {
            RecoveryRecord record = decode(stored.getKey(), stored.getValue());
            ExportArea export = exports.get(record.exportId());
            if (export == null) {
                LOG.warn("recovery: txn {} belongs to export {}, which is not configured: its record stays until "
                        + "that export is served again", record.txnId(), record.exportId());
                continue;
            }
            recovered.add(recoverOne(record, export));
        }
        List<Path> orphans = orphanBackups(true);
        RecoveryReport report = new RecoveryReport(pending(), recovered, orphans,
                Duration.ofNanos(System.nanoTime() - start));
        LOG.info(report.summary());
        return report;
    }

    /**
     * What {@link #recover()} would do, changing nothing: the pending records (a damaged one as a pending
     * record with its decoding error and no steps) and the orphan backups.
     */
    public RecoveryReport check() {
        long start = System.nanoTime();
        List<RecoveryReport.Pending> pending = new ArrayList<>();
        for (Map.Entry<Long, byte[]> stored : storedRecords().entrySet()) {
            try {
                pending.add(pendingOf(RecoveryRecords.decode(stored.getValue())));
            } catch (InvalidRecordException e) {
                pending.add(new RecoveryReport.Pending(stored.getKey(), "?", java.time.Instant.EPOCH, 0, 0, 0, "", 0,
                        java.util.Optional.of("damaged record: " + e.getMessage())));
            }
        }
        return new RecoveryReport(pending, List.of(), orphanBackups(false), Duration.ofNanos(System.nanoTime() - start));
    }

    private static RecoveryReport.Pending pendingOf(RecoveryRecord r) {
        return new RecoveryReport.Pending(r.txnId(), r.exportId(), r.started(), r.steps().size(), r.undoneSteps(),
                r.opCount(), r.tag(), r.undoAttempts(), r.lastUndoError());
    }

    private RecoveryReport.Recovered recoverOne(RecoveryRecord record, ExportArea export) throws RecoveryException {
        long start = System.nanoTime();
        UndoExecutor undo = new UndoExecutor(export.root(), export.backups(), crashPoints, "mid-recovery-");
        AtomicReference<RecoveryRecord> latest = new AtomicReference<>(record);
        try {
            UndoExecutor.Result result = undo.undo(record, progress -> {
                save(progress);
                latest.set(progress);
            });
            handles.commitDurably(batch -> batch.delete(records, TransactionHook.key(record.txnId())));
            discardBackups(export, record.txnId());
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            LOG.info("recovery: txn {} (export {}, tag \"{}\", {} ops) undone: {} steps ({} had nothing to do) in {} ms",
                    record.txnId(), record.exportId(), record.tag(), record.opCount(), result.undone(),
                    result.skipped(), took.toMillis());
            return new RecoveryReport.Recovered(record.txnId(), record.exportId(), result.undone(), took);
        } catch (IOException | RuntimeException e) {
            try {
                save(latest.get().withFailedUndo(e.toString()));
            } catch (RuntimeException again) {
                LOG.error("recovery: cannot note the failure in txn {}'s record: {}", record.txnId(), again.toString());
            }
            throw new RecoveryException("recovery of txn " + record.txnId() + " (export " + record.exportId()
                    + ") failed; its record stays and the server does not start: " + e, e);
        }
    }

    private void save(RecoveryRecord record) {
        byte[] value = RecoveryRecords.encode(record);
        handles.commitDurably(batch -> batch.put(records, TransactionHook.key(record.txnId()), value));
    }

    /** Deletes a recovered transaction's backups (its record is gone, so nothing needs them). */
    private static void discardBackups(ExportArea export, long txnId) {
        try {
            export.backups().forTransaction(Long.toString(txnId)).discard();
        } catch (IOException | RuntimeException e) {
            LOG.warn("recovery: cannot delete the backups of txn {} (the next start removes them): {}", txnId,
                    e.toString());
        }
    }

    private Map<Long, byte[]> storedRecords() {
        Map<Long, byte[]> found = new LinkedHashMap<>();
        try (HandleSnapshot snapshot = handles.read()) {
            snapshot.forEach(records, (key, value) -> found.put(ByteBuffer.wrap(key).getLong(), value));
        }
        return found;
    }

    private static RecoveryRecord decode(long id, byte[] value) throws RecoveryException {
        try {
            return RecoveryRecords.decode(value);
        } catch (InvalidRecordException e) {
            throw new RecoveryException("the recovery record of txn " + id + " is damaged (" + e.getMessage()
                    + "); it stays in place and the server does not start (--check lists it)", e);
        }
    }

    private List<RecoveryReport.Pending> pending() throws RecoveryException {
        List<RecoveryReport.Pending> result = new ArrayList<>();
        for (Map.Entry<Long, byte[]> stored : storedRecords().entrySet()) {
            result.add(pendingOf(decode(stored.getKey(), stored.getValue())));
        }
        return result;
    }

    /** Backup directories no record refers to; deleted when {@code remove}. */
    private List<Path> orphanBackups(boolean remove) {
        Set<String> referenced = new HashSet<>();
        for (Long id : storedRecords().keySet()) {
            referenced.add(Long.toString(id));
        }
        List<Path> orphans = new ArrayList<>();
        for (ExportArea export : exports.values()) {
            List<String> names;
            try {
                names = export.backups().transactions();
            } catch (IOException e) {
                LOG.warn("recovery: cannot list backups of export {}: {}", export.exportId(), e.toString());
                continue;
            }
            for (String name : names) {
                if (referenced.contains(name)) {
                    continue;
                }
                Path dir = export.backups().root().resolve(name);
                orphans.add(dir);
                if (remove) {
                    try {
                        export.backups().forTransaction(name).discard();
                    } catch (IOException | RuntimeException e) {
                        LOG.warn("recovery: cannot delete orphan backup {}: {}", dir, e.toString());
                    }
                }
            }
        }
        return orphans;
    }
}
