package org.tcnfs.proto;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Sample values for the tests: at least one of every undo step kind, with and without optional parts. */
final class Samples {

    static final ObjectHandle HANDLE_A = new ObjectHandle(0x0123456789abcdefL, 0xfedcba9876543210L);
    static final ObjectHandle HANDLE_B = new ObjectHandle(-1L, 42L);
    static final Instant START = Instant.parse("2026-11-22T04:05:06.123456789Z");

    private Samples() {
    }

    static RelativePath path(String value) {
        return RelativePath.of(value);
    }

    static Attributes allAttributes() {
        return Attributes.NONE.withMode(0644).withUid(1000).withGid(-2).withSize(4096)
                .withAtime(Instant.parse("1969-07-20T20:17:40.5Z")).withMtime(Instant.ofEpochSecond(1_700_000_000L, 999_999_999));
    }

    /** One step (or more) of every kind, in a valid order for a compound of {@link #OP_COUNT} ops. */
    static List<UndoStep> steps() {
        // a new kind of step gets its sample here, after those of format1Steps()
        return format1Steps();
    }

    /**
     * The steps of {@link #format1Record()}: one (or more) of every kind format 1 had when
     * {@code full-record-format1.hex} was written. Never changes: that file holds these steps' old encoding.
     */
    static List<UndoStep> format1Steps() {
        return List.of(
                new UndoStep.RestoreRanges(0, ObjectRef.of(path("etc/passwd"), HANDLE_A, 1234L), 10_000,
                        List.of(SavedRange.inBackup(0, 4096, path("0"), 0),
                                SavedRange.inline(4096, "old bytes".getBytes(StandardCharsets.UTF_8)),
                                SavedRange.hole(5000, 3000),
                                SavedRange.inBackup(8192, 1808, path("sub/1"), 4096))),
                new UndoStep.RestoreRanges(1, ObjectRef.of(path("empty"), HANDLE_B, -7L), 0, List.of()),
                new UndoStep.RestoreSize(2, ObjectRef.of(path("etc/group"), HANDLE_B, 99L), 12),
                new UndoStep.RemoveCreated(3, ObjectRef.at(path("a")), ObjectKind.DIRECTORY),
                new UndoStep.RemoveCreated(4, ObjectRef.at(path("a/b")).withHandle(HANDLE_A), ObjectKind.REGULAR),
                new UndoStep.RemoveCreated(5, ObjectRef.at(path("a/l")), ObjectKind.SYMLINK),
                new UndoStep.RemoveCreated(5, ObjectRef.at(path("a/p")), ObjectKind.FIFO),
                new UndoStep.UnlinkLink(6, ObjectRef.of(path("a/hard"), HANDLE_A, 1234L)),
                new UndoStep.MoveBack(7, ObjectRef.of(path("victim"), HANDLE_B, 5L), ObjectKind.REGULAR, path("2")),
                new UndoStep.MoveBack(8, ObjectRef.at(path("emptydir")).withFileId(6L), ObjectKind.DIRECTORY,
                        path("3")),
                new UndoStep.RenameBack(9, ObjectRef.of(path("x"), HANDLE_A, 1L), ObjectRef.at(path("y")),
                        Optional.empty()),
                new UndoStep.RenameBack(10, ObjectRef.of(path("d1/x"), HANDLE_A, 1L),
                        ObjectRef.of(path("d2/z"), HANDLE_B, 2L), Optional.of(path("4"))),
                new UndoStep.RestoreAttributes(11, ObjectRef.of(RelativePath.ROOT, HANDLE_B, 2L),
                        Attributes.NONE.withMode(0755)),
                new UndoStep.RestoreAttributes(11, ObjectRef.of(path("etc/shadow"), HANDLE_A, 3L),
                        allAttributes()));
    }

    static final int OP_COUNT = 22;

    static RecoveryRecord fullRecord() {
        return recordOf(steps());
    }

    /** The record kept in {@code full-record-format1.hex}, as format 1's first writer encoded it. */
    static RecoveryRecord format1Record() {
        return recordOf(format1Steps());
    }

    private static RecoveryRecord recordOf(List<UndoStep> steps) {
        RecoveryRecord.Builder builder = RecoveryRecord.builder(Long.MAX_VALUE, "export-1", START)
                .backupDirectory(".tcnfs/backup/7")
                .lockKeys(List.of(LockKey.read(""), LockKey.read("etc"), LockKey.write("etc/passwd")))
                .preImage(PreImage.absent(path("a")))
                .preImage(PreImage.present(ObjectRef.of(path("etc/passwd"), HANDLE_A, 1234L), ObjectKind.REGULAR,
                        allAttributes()))
                .preImage(PreImage.present(ObjectRef.at(path("etc")).withFileId(77L), ObjectKind.DIRECTORY,
                        Attributes.NONE))
                .opCount(OP_COUNT)
                .tag("txn: passwd, group, shadow")
                .undoneSteps(3)
                .failedUndo(2, "EIO while cloning back etc/passwd");
        steps.forEach(builder::step);
        return builder.build();
    }

    static RecoveryRecord minimalRecord() {
        return RecoveryRecord.builder(1, "e", Instant.EPOCH).build();
    }
}
