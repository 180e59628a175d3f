package org.tcnfs.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RecoveryRecordTest {

    private static UndoStep create(int op, String path) {
        return new UndoStep.RemoveCreated(op, ObjectRef.at(RelativePath.of(path)), ObjectKind.REGULAR);
    }

    @Test
    void pendingUndoRunsLastStepFirstAndSkipsUndoneSteps() {
        UndoStep a = create(0, "a");
        UndoStep b = create(1, "b");
        UndoStep c = create(1, "c");
        RecoveryRecord record = RecoveryRecord.builder(1, "e", Instant.EPOCH).opCount(2)
                .step(a).step(b).step(c).build();

        assertThat(record.pendingUndo()).containsExactly(c, b, a);
        assertThat(record.withUndoneSteps(1).pendingUndo()).containsExactly(b, a);
        assertThat(record.withUndoneSteps(3).pendingUndo()).isEmpty();
    }

    @Test
    void undoneStepsCannotExceedTheSteps() {
        RecoveryRecord record = RecoveryRecord.builder(1, "e", Instant.EPOCH).opCount(1).step(create(0, "a")).build();

        assertThatThrownBy(() -> record.withUndoneSteps(2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> record.withUndoneSteps(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFailedUndoCountsAttemptsAndKeepsTheLastError() {
        RecoveryRecord record = Samples.minimalRecord().withFailedUndo("first").withFailedUndo("second");

        assertThat(record.undoAttempts()).isEqualTo(2);
        assertThat(record.lastUndoError()).contains("second");
    }

    @Test
    void anEmptyUndoErrorCountsAsNone() {
        assertThat(Samples.minimalRecord().withFailedUndo("").lastUndoError()).isEmpty();
    }

    @Test
    void stepsMustBelongToOpsOfTheCompoundInOrder() {
        assertThatThrownBy(() -> RecoveryRecord.builder(1, "e", Instant.EPOCH).step(create(0, "a")).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("compound of 0 ops");
        assertThatThrownBy(() -> RecoveryRecord.builder(1, "e", Instant.EPOCH).opCount(3)
                .step(create(2, "a")).step(create(1, "b")).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("step 1 belongs to op 1, before op 2");
    }

    @Test
    void theIdExportAndStartTimeAreChecked() {
        assertThatThrownBy(() -> RecoveryRecord.builder(0, "e", Instant.EPOCH).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RecoveryRecord.builder(1, "", Instant.EPOCH).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RecoveryRecord.builder(1, "e", Instant.parse("2300-01-01T00:00:00Z")).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("start time out of range");
        assertThatThrownBy(() -> RecoveryRecord.builder(1, "e", Instant.EPOCH).backupDirectory("").build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void toBuilderKeepsEveryValue() {
        RecoveryRecord record = Samples.fullRecord();

        assertThat(record.toBuilder().build()).isEqualTo(record);
    }

    @Test
    void listsAreCopiedSoTheRecordCannotChange() {
        java.util.ArrayList<LockKey> keys = new java.util.ArrayList<>(List.of(LockKey.write("a")));
        RecoveryRecord record = new RecoveryRecord(1, Instant.EPOCH, "e", Optional.empty(), keys, List.of(),
                List.of(), 0, "", 0, 0, Optional.empty());

        keys.add(LockKey.read("b"));

        assertThat(record.lockKeys()).containsExactly(LockKey.write("a"));
        assertThatThrownBy(() -> record.lockKeys().add(LockKey.read("c")))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
