package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tcnfs.proto.Attributes;
import org.tcnfs.proto.ObjectKind;
import org.tcnfs.proto.ObjectRef;
import org.tcnfs.proto.RelativePath;
import org.tcnfs.proto.SavedRange;
import org.tcnfs.proto.UndoStep;

/**
 * Which prepared undo steps let a transaction write its recovery record while its backups become durable, instead
 * of after them ({@code TransactionSteps.recordMayRaceBackups}): only steps whose undo does nothing without its
 * backup, because nothing changes before both are durable.
 */
class RecordRacesBackupsTest {
    private static final ObjectRef A = ObjectRef.at(RelativePath.of("d/a"));

    @Test
    void aCompoundOfRemovesWritesItsRecordWhileItsKeptNamesBecomeDurable() {
        List<UndoStep> removes = List.of(
                new UndoStep.RestoreAttributes(0, ObjectRef.at(RelativePath.of("d")), Attributes.NONE.withMtime(java.time.Instant.EPOCH)),
                new UndoStep.RestoreAttributes(0, A, Attributes.NONE.withMtime(java.time.Instant.EPOCH)),
                new UndoStep.MoveBack(0, A, ObjectKind.REGULAR, RelativePath.of("rm-0")),
                new UndoStep.MoveBack(1, ObjectRef.at(RelativePath.of("d/e")), ObjectKind.DIRECTORY,
                        RelativePath.of("rm-1")));
        assertThat(TransactionSteps.recordMayRaceBackups(removes)).isTrue();
    }

    @Test
    void stepsThatRestoreDataWaitForTheirBackupsBeforeTheRecord() {
        UndoStep move = new UndoStep.MoveBack(0, A, ObjectKind.REGULAR, RelativePath.of("rm-0"));
        UndoStep ranges = new UndoStep.RestoreRanges(1, A, 10, List.of(SavedRange.inBackup(0, 10,
                RelativePath.of("data-1"), 0)));
        assertThat(TransactionSteps.recordMayRaceBackups(List.of(move, ranges))).isFalse();
        assertThat(TransactionSteps.recordMayRaceBackups(List.of(new UndoStep.RestoreSize(0, A, 0)))).isFalse();
        assertThat(TransactionSteps.recordMayRaceBackups(List.of(new UndoStep.RenameBack(0, A,
                ObjectRef.at(RelativePath.of("d/b")), java.util.Optional.of(RelativePath.of("mv-0")))))).isFalse();
    }
}
