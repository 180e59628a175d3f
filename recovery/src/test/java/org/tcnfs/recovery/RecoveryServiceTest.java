package org.tcnfs.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.proto.InvalidRecordException;
import org.tcnfs.proto.ObjectKind;
import org.tcnfs.proto.ObjectRef;
import org.tcnfs.proto.RecoveryRecord;
import org.tcnfs.proto.RecoveryRecords;
import org.tcnfs.proto.RelativePath;
import org.tcnfs.proto.SavedRange;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.CrashPoints;
import org.tcnfs.txn.TransactionHook;
import org.tcnfs.txn.backup.BackupManager;
import org.tcnfs.txn.backup.BackupStore;
import org.tcnfs.txn.backup.MovedAside;
import org.tcnfs.txn.backup.RangeBackup;
import org.tcnfs.txn.handles.HandleBatch;
import org.tcnfs.txn.handles.HandleSnapshot;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.SideTable;
import org.tcnfs.txn.undo.UndoExecutor;

/** Startup recovery (DESIGN.md: "Recovery at startup ... replays step 7's undo for every record left behind"). */
class RecoveryServiceTest {
    private static final String EXPORT = "exp";
    private static final int BLOCK = 4096;

    @TempDir
    Path base;

    private Path root;
    private BackupStore store;
    private HandleTable table;
    private SideTable records;

    @BeforeEach
    void setUp() throws IOException {
        root = Files.createDirectories(base.resolve("export"));
        store = BackupStore.open(base.resolve("backups"));
        table = HandleTable.open(base.resolve("state"));
        records = table.sideTable(TransactionHook.RECORDS_TABLE);
    }

    @AfterEach
    void tearDown() {
        table.close();
    }

    private RecoveryService service() {
        return new RecoveryService(table, List.of(new ExportArea(EXPORT, root, store)),
                CrashPoints.NONE);
    }

    private void store(long id, byte[] value) {
        try (HandleBatch batch = table.write()) {
            batch.put(records, TransactionHook.key(id), value);
            batch.commit();
        }
    }

    private void store(RecoveryRecord record) {
        store(record.txnId(), RecoveryRecords.encode(record));
    }

    private Optional<byte[]> stored(long id) {
        try (HandleSnapshot snapshot = table.read()) {
            return snapshot.get(records, TransactionHook.key(id));
        }
    }

    private static RecoveryRecord.Builder record(long id, String export) {
        return RecoveryRecord.builder(id, export, Instant.parse("2026-11-22T06:00:00Z"));
    }

    private static ObjectRef ref(String path, Path local) throws IOException {
        return new ObjectRef(RelativePath.of(path), Optional.empty(),
                OptionalLong.of(UndoExecutor.fileIdOf(local).orElseThrow()));
    }

    private static RelativePath relative(BackupManager backups, Path backup) {
        return RelativePath.of(backups.directory().relativize(backup).toString());
    }

    private static byte[] pattern(int length, int seed) {
        byte[] data = new byte[length];
        for (int i = 0; i < length; i++) {
            data[i] = (byte) (i * 13 + seed);
        }
        return data;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void recoverUndoesACreatedFileAndASavedRangeThenDeletesTheRecord() throws Exception {
        byte[] original = pattern(2 * BLOCK, 1);
        Path f = Files.write(root.resolve("f"), original);
        BackupManager backups = store.forTransaction("7");
        RangeBackup range = backups.backupRange(f, 0, BLOCK);
        backups.makeDurable();
        store(record(7, EXPORT).opCount(2)
                .step(new UndoStep.RestoreRanges(0, ref("f", f), original.length,
                        List.of(SavedRange.inBackup(0, BLOCK, relative(backups, range.backupFile()), 0))))
                .step(new UndoStep.RemoveCreated(1, ObjectRef.at(RelativePath.of("new")), ObjectKind.REGULAR))
                .build());
        try (var ch = java.nio.channels.FileChannel.open(f, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(pattern(BLOCK, 99)), 0);
            ch.write(java.nio.ByteBuffer.wrap(pattern(BLOCK, 98)), 2 * BLOCK);
        }
        Files.write(root.resolve("new"), utf8("created"));

        RecoveryReport report = service().recover();

        assertThat(Arrays.mismatch(Files.readAllBytes(f), original)).isEqualTo(-1);
        assertThat(root.resolve("new")).doesNotExist();
        assertThat(stored(7)).isEmpty();
        assertThat(report.recovered()).singleElement().satisfies(r -> {
            assertThat(r.txnId()).isEqualTo(7);
            assertThat(r.exportId()).isEqualTo(EXPORT);
            assertThat(r.stepsUndone()).isEqualTo(2);
        });
        assertThat(report.pending()).isEmpty();
        assertThat(backups.directory()).doesNotExist();
        assertThat(service().check().pending()).isEmpty();
    }

    @Test
    void orphanBackupDirectoriesAreListedByCheckAndRemovedByRecover() throws Exception {
        Path orphan = Files.createDirectories(store.root().resolve("99"));
        Files.write(orphan.resolve("r0"), utf8("old bytes"));

        RecoveryReport check = service().check();

        assertThat(check.orphanBackups()).containsExactly(orphan);
        assertThat(orphan.resolve("r0")).exists();

        RecoveryReport report = service().recover();

        assertThat(report.orphanBackups()).containsExactly(orphan);
        assertThat(orphan).doesNotExist();
        assertThat(report.recovered()).isEmpty();
    }

    @Test
    void backupsOfAPendingRecordAreNotOrphans() throws Exception {
        Path kept = Files.createDirectories(store.root().resolve("5"));
        store(record(5, "gone").build());

        assertThat(service().check().orphanBackups()).isEmpty();
        assertThat(service().recover().orphanBackups()).isEmpty();
        assertThat(kept).isDirectory();
    }

    @Test
    void aDamagedRecordMakesRecoverThrowAndStays() {
        byte[] garbage = new byte[64];
        new Random(1234).nextBytes(garbage);
        assertThatThrownBy(() -> RecoveryRecords.decode(garbage)).isInstanceOf(InvalidRecordException.class);
        store(3, garbage);

        assertThatThrownBy(() -> service().recover()).isInstanceOf(RecoveryException.class)
                .hasMessageContaining("txn 3");

        assertThat(stored(3)).hasValueSatisfying(v -> assertThat(v).isEqualTo(garbage));
    }

    @Test
    void aRecordOfAnUnconfiguredExportStaysAndIsListedByCheck() throws Exception {
        Path f = Files.write(root.resolve("f"), utf8("untouched"));
        RecoveryRecord foreign = record(11, "gone").opCount(1)
                .step(new UndoStep.RemoveCreated(0, ObjectRef.at(RelativePath.of("f")), ObjectKind.REGULAR))
                .tag("t").build();
        store(foreign);

        RecoveryReport report = service().recover();

        assertThat(report.recovered()).isEmpty();
        assertThat(report.pending()).extracting(RecoveryReport.Pending::txnId).containsExactly(11L);
        assertThat(stored(11)).isPresent();
        assertThat(f).hasContent("untouched");
        assertThat(service().check().pending()).singleElement().satisfies(p -> {
            assertThat(p.exportId()).isEqualTo("gone");
            assertThat(p.steps()).isEqualTo(1);
            assertThat(p.tag()).isEqualTo("t");
        });
    }

    /** REMOVE a then CREATE a ran; the created file's identity was not known when the record was written. */
    private RecoveryRecord.Builder removeThenCreate(long id) throws IOException {
        Path a = Files.write(root.resolve("a"), utf8("original"));
        ObjectRef original = ref("a", a);
        BackupManager backups = store.forTransaction(Long.toString(id));
        MovedAside moved = backups.moveAside(a);
        Files.write(root.resolve("a"), utf8("created"));
        return record(id, EXPORT).opCount(2)
                .step(new UndoStep.MoveBack(0, original, ObjectKind.REGULAR, relative(backups, moved.backup())))
                .step(new UndoStep.RemoveCreated(1, ObjectRef.at(RelativePath.of("a")), ObjectKind.REGULAR));
    }

    @Test
    void recoveryInterruptedAfterItsSavedProgressResumesFromThere() throws Exception {
        RecoveryRecord record = removeThenCreate(21).build();
        Files.delete(root.resolve("a"));
        store(record.withUndoneSteps(1));

        RecoveryReport report = service().recover();

        assertThat(root.resolve("a")).hasContent("original");
        assertThat(report.recovered()).singleElement().satisfies(r -> assertThat(r.stepsUndone()).isEqualTo(1));
        assertThat(stored(21)).isEmpty();
    }

    @Test
    void recoveryInterruptedAfterTheLastStepKeepsTheRestoredOriginal() throws Exception {
        RecoveryRecord record = removeThenCreate(22).build();
        store(record);
        new UndoExecutor(root, store, CrashPoints.NONE, "mid-recovery-")
                .undo(record, this::store);
        assertThat(root.resolve("a")).hasContent("original");
        assertThat(RecoveryRecords.decode(stored(22).orElseThrow()).undoneSteps()).isEqualTo(1);

        service().recover();

        assertThat(root.resolve("a")).hasContent("original");
        assertThat(stored(22)).isEmpty();
    }

    @Test
    void aFailedRecoveryKeepsItsProgressSoTheRetryKeepsTheRestoredOriginal() throws Exception {
        Path d = Files.createDirectory(root.resolve("d"));
        RecoveryRecord.Builder b = record(23, EXPORT).opCount(3)
                .step(new UndoStep.RemoveCreated(0, ObjectRef.at(RelativePath.of("d")), ObjectKind.DIRECTORY));
        Path a = Files.write(root.resolve("a"), utf8("original"));
        ObjectRef original = ref("a", a);
        BackupManager backups = store.forTransaction("23");
        MovedAside moved = backups.moveAside(a);
        Files.write(root.resolve("a"), utf8("created"));
        b.step(new UndoStep.MoveBack(1, original, ObjectKind.REGULAR, relative(backups, moved.backup())))
                .step(new UndoStep.RemoveCreated(2, ObjectRef.at(RelativePath.of("a")), ObjectKind.REGULAR));
        store(b.build());
        Path stray = Files.write(d.resolve("stray"), utf8("not the transaction's"));

        assertThatThrownBy(() -> service().recover()).isInstanceOf(RecoveryException.class);
        assertThat(root.resolve("a")).hasContent("original");
        RecoveryRecord afterFailure = RecoveryRecords.decode(stored(23).orElseThrow());
        assertThat(afterFailure.undoAttempts()).isEqualTo(1);
        assertThat(afterFailure.lastUndoError()).isPresent();

        Files.delete(stray);
        service().recover();

        assertThat(root.resolve("a")).hasContent("original");
        assertThat(d).doesNotExist();
        assertThat(stored(23)).isEmpty();
        assertThat(afterFailure.undoneSteps()).isGreaterThanOrEqualTo(1);
    }
}
