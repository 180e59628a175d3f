package org.tcnfs.proto;

import com.google.protobuf.ByteString;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.tcnfs.proto.recovery.BackupExtent;
import org.tcnfs.proto.recovery.TxnRecord;
import org.tcnfs.proto.recovery.UnixTime;

/**
 * Converts between the Java records of this package and the generated protobuf messages of
 * {@code tcnfs/recovery.proto}. The only class that touches generated types.
 *
 * <p>Reading throws {@link IllegalArgumentException} (from here or from a record's compact constructor) for
 * any value that breaks a rule, with the field's place in its message; {@link RecoveryRecords} turns it
 * into an {@link InvalidRecordException}.
 */
final class ProtoMapping {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private ProtoMapping() {
    }

    // ---------------------------------------------------------------- records -> messages

    static TxnRecord toProto(RecoveryRecord record) {
        TxnRecord.Builder builder = TxnRecord.newBuilder()
                .setTxnId(record.txnId())
                .setStartedUnixNanos(toUnixNanos(record.started()))
                .setExportId(record.exportId())
                .setBackupDir(record.backupDirectory().orElse(""))
                .setOpCount(record.opCount())
                .setTag(record.tag())
                .setUndoneSteps(record.undoneSteps())
                .setUndoAttempts(record.undoAttempts())
                .setLastUndoError(record.lastUndoError().orElse(""));
        for (LockKey key : record.lockKeys()) {
            builder.addLockKeys(org.tcnfs.proto.recovery.LockKey.newBuilder()
                    .setKey(key.key())
                    .setMode(toProto(key.mode())));
        }
        for (PreImage preImage : record.preImages()) {
            builder.addPreImages(toProto(preImage));
        }
        for (UndoStep step : record.steps()) {
            builder.addSteps(toProto(step));
        }
        return builder.build();
    }

    static org.tcnfs.proto.recovery.TxnIdState toProto(TxnIdState state) {
        return org.tcnfs.proto.recovery.TxnIdState.newBuilder()
                .setNextTxnIdFloor(state.nextTxnIdFloor())
                .build();
    }

    private static org.tcnfs.proto.recovery.PreImage toProto(PreImage preImage) {
        org.tcnfs.proto.recovery.PreImage.Builder builder = org.tcnfs.proto.recovery.PreImage.newBuilder()
                .setObject(toProto(preImage.object()))
                .setExisted(preImage.presence() == Presence.PRESENT);
        preImage.kind().ifPresent(kind -> builder.setKind(toProto(kind)));
        if (!preImage.attributes().isEmpty()) {
            builder.setAttributes(toProto(preImage.attributes()));
        }
        return builder.build();
    }

    private static org.tcnfs.proto.recovery.UndoStep toProto(UndoStep step) {
        org.tcnfs.proto.recovery.UndoStep.Builder builder = org.tcnfs.proto.recovery.UndoStep.newBuilder()
                .setOpIndex(step.opIndex());
        return step.accept(new StepEncoder(builder));
    }

    /** Each kind of undo step into its field of the {@code UndoStep} oneof. */
    private static final class StepEncoder
            implements UndoStep.Visitor<org.tcnfs.proto.recovery.UndoStep, RuntimeException> {
        private final org.tcnfs.proto.recovery.UndoStep.Builder builder;

        StepEncoder(org.tcnfs.proto.recovery.UndoStep.Builder builder) {
            this.builder = builder;
        }

        @Override
        public org.tcnfs.proto.recovery.UndoStep restoreRanges(UndoStep.RestoreRanges s) {
            org.tcnfs.proto.recovery.RestoreRanges.Builder body = org.tcnfs.proto.recovery.RestoreRanges.newBuilder()
                    .setTarget(toProto(s.target()))
                    .setOldSize(s.oldSize());
            for (SavedRange range : s.ranges()) {
                body.addRanges(toProto(range));
            }
            return builder.setRestoreRanges(body).build();
        }

        @Override
        public org.tcnfs.proto.recovery.UndoStep restoreSize(UndoStep.RestoreSize s) {
            return builder.setRestoreSize(org.tcnfs.proto.recovery.RestoreSize.newBuilder()
                    .setTarget(toProto(s.target()))
                    .setOldSize(s.oldSize())).build();
        }

        @Override
        public org.tcnfs.proto.recovery.UndoStep removeCreated(UndoStep.RemoveCreated s) {
            return builder.setRemoveCreated(org.tcnfs.proto.recovery.RemoveCreated.newBuilder()
                    .setTarget(toProto(s.target()))
                    .setKind(toProto(s.kind()))).build();
        }

        @Override
        public org.tcnfs.proto.recovery.UndoStep unlinkLink(UndoStep.UnlinkLink s) {
            return builder.setUnlinkLink(org.tcnfs.proto.recovery.UnlinkLink.newBuilder()
                    .setLink(toProto(s.link()))).build();
        }

        @Override
        public org.tcnfs.proto.recovery.UndoStep moveBack(UndoStep.MoveBack s) {
            return builder.setMoveBack(org.tcnfs.proto.recovery.MoveBack.newBuilder()
                    .setOriginal(toProto(s.original()))
                    .setKind(toProto(s.kind()))
                    .setBackup(s.backup().toString())).build();
        }

        @Override
        public org.tcnfs.proto.recovery.UndoStep renameBack(UndoStep.RenameBack s) {
            org.tcnfs.proto.recovery.RenameBack.Builder body = org.tcnfs.proto.recovery.RenameBack.newBuilder()
                    .setFrom(toProto(s.from()))
                    .setTo(toProto(s.to()));
            s.keptTargetBackup().ifPresent(backup -> body.setKeptTargetBackup(backup.toString()));
            return builder.setRenameBack(body).build();
        }

        @Override
        public org.tcnfs.proto.recovery.UndoStep restoreAttributes(UndoStep.RestoreAttributes s) {
            return builder.setRestoreAttributes(org.tcnfs.proto.recovery.RestoreAttributes.newBuilder()
                    .setTarget(toProto(s.target()))
                    .setOld(toProto(s.old()))).build();
        }
    }

    private static org.tcnfs.proto.recovery.SavedRange toProto(SavedRange range) {
        org.tcnfs.proto.recovery.SavedRange.Builder builder = org.tcnfs.proto.recovery.SavedRange.newBuilder()
                .setOffset(range.offset())
                .setLength(range.length());
        if (range.source() instanceof SavedRange.Backup backup) {
            builder.setBackup(BackupExtent.newBuilder()
                    .setFile(backup.file().toString())
                    .setFileOffset(backup.fileOffset()));
        } else if (range.source() instanceof SavedRange.Inline inline) {
            builder.setInlineData(ByteString.copyFrom(inline.data()));
        } else if (range.source() instanceof SavedRange.Hole) {
            builder.setHole(org.tcnfs.proto.recovery.HoleExtent.getDefaultInstance());
        } else {
            throw new AssertionError("range source without a message: " + range.source().getClass());
        }
        return builder.build();
    }

    private static org.tcnfs.proto.recovery.ObjectRef toProto(ObjectRef ref) {
        org.tcnfs.proto.recovery.ObjectRef.Builder builder = org.tcnfs.proto.recovery.ObjectRef.newBuilder()
                .setPath(ref.path().toString());
        ref.handle().ifPresent(handle -> builder.setHandle(ByteString.copyFrom(handle.toBytes())));
        ref.fileId().ifPresent(builder::setFileId);
        return builder.build();
    }

    private static org.tcnfs.proto.recovery.Attributes toProto(Attributes attributes) {
        org.tcnfs.proto.recovery.Attributes.Builder builder = org.tcnfs.proto.recovery.Attributes.newBuilder();
        attributes.mode().ifPresent(builder::setMode);
        attributes.uid().ifPresent(builder::setUid);
        attributes.gid().ifPresent(builder::setGid);
        attributes.size().ifPresent(builder::setSize);
        attributes.atime().ifPresent(time -> builder.setAtime(toProto(time)));
        attributes.mtime().ifPresent(time -> builder.setMtime(toProto(time)));
        return builder.build();
    }

    private static UnixTime toProto(Instant time) {
        return UnixTime.newBuilder().setSeconds(time.getEpochSecond()).setNanos(time.getNano()).build();
    }

    private static org.tcnfs.proto.recovery.ObjectKind toProto(ObjectKind kind) {
        switch (kind) {
            case REGULAR: return org.tcnfs.proto.recovery.ObjectKind.OBJECT_KIND_REGULAR;
            case DIRECTORY: return org.tcnfs.proto.recovery.ObjectKind.OBJECT_KIND_DIRECTORY;
            case SYMLINK: return org.tcnfs.proto.recovery.ObjectKind.OBJECT_KIND_SYMLINK;
            case BLOCK: return org.tcnfs.proto.recovery.ObjectKind.OBJECT_KIND_BLOCK;
            case CHAR: return org.tcnfs.proto.recovery.ObjectKind.OBJECT_KIND_CHAR;
            case SOCKET: return org.tcnfs.proto.recovery.ObjectKind.OBJECT_KIND_SOCKET;
            case FIFO: return org.tcnfs.proto.recovery.ObjectKind.OBJECT_KIND_FIFO;
            default: throw new AssertionError("object kind without a message value: " + kind);
        }
    }

    private static org.tcnfs.proto.recovery.LockMode toProto(LockMode mode) {
        switch (mode) {
            case READ: return org.tcnfs.proto.recovery.LockMode.LOCK_MODE_READ;
            case WRITE: return org.tcnfs.proto.recovery.LockMode.LOCK_MODE_WRITE;
            default: throw new AssertionError("lock mode without a message value: " + mode);
        }
    }

    /** Nanoseconds since the epoch; {@code time} is within the range {@link RecoveryRecord} allows. */
    private static long toUnixNanos(Instant time) {
        long seconds = time.getEpochSecond();
        long nanos = time.getNano();
        if (seconds < 0 && nanos > 0) {
            // (seconds + 1) s - (1 s - nanos): keeps the product in range near Long.MIN_VALUE
            return Math.addExact(Math.multiplyExact(seconds + 1, NANOS_PER_SECOND), nanos - NANOS_PER_SECOND);
        }
        return Math.addExact(Math.multiplyExact(seconds, NANOS_PER_SECOND), nanos);
    }

    // ---------------------------------------------------------------- messages -> records

    static RecoveryRecord fromProto(TxnRecord message) {
        long txnId = message.getTxnId();
        if (txnId <= 0) {
            throw new IllegalArgumentException("txn_id must be within 1..2^63-1, not "
                    + Long.toUnsignedString(txnId));
        }
        RecoveryRecord.Builder builder = RecoveryRecord.builder(txnId, message.getExportId(),
                Instant.ofEpochSecond(0, message.getStartedUnixNanos()));
        if (!message.getBackupDir().isEmpty()) {
            builder.backupDirectory(message.getBackupDir());
        }
        for (int i = 0; i < message.getLockKeysCount(); i++) {
            org.tcnfs.proto.recovery.LockKey key = message.getLockKeys(i);
            String where = "lock_keys[" + i + "]";
            builder.lockKey(within(where, () -> new LockKey(key.getKey(), fromProto(key.getMode()))));
        }
        for (int i = 0; i < message.getPreImagesCount(); i++) {
            org.tcnfs.proto.recovery.PreImage preImage = message.getPreImages(i);
            builder.preImage(within("pre_images[" + i + "]", () -> fromProto(preImage)));
        }
        for (int i = 0; i < message.getStepsCount(); i++) {
            org.tcnfs.proto.recovery.UndoStep step = message.getSteps(i);
            builder.step(within("steps[" + i + "]", () -> fromProto(step)));
        }
        builder.opCount(unsignedInt("op_count", message.getOpCount()))
                .tag(message.getTag())
                .undoneSteps(unsignedInt("undone_steps", message.getUndoneSteps()))
                .failedUndo(unsignedInt("undo_attempts", message.getUndoAttempts()), message.getLastUndoError());
        return builder.build();
    }

    static TxnIdState fromProto(org.tcnfs.proto.recovery.TxnIdState message) {
        long floor = message.getNextTxnIdFloor();
        if (floor <= 0) {
            throw new IllegalArgumentException("next_txn_id_floor must be within 1..2^63-1, not "
                    + Long.toUnsignedString(floor));
        }
        return new TxnIdState(floor);
    }

    private static PreImage fromProto(org.tcnfs.proto.recovery.PreImage message) {
        ObjectRef object = fromProto("object", message.getObject());
        Presence presence = message.getExisted() ? Presence.PRESENT : Presence.ABSENT;
        Optional<ObjectKind> kind = message.getKind() == org.tcnfs.proto.recovery.ObjectKind.OBJECT_KIND_UNSPECIFIED
                ? Optional.empty()
                : Optional.of(fromProto(message.getKind()));
        Attributes attributes = message.hasAttributes() ? fromProto(message.getAttributes()) : Attributes.NONE;
        return new PreImage(object, presence, kind, attributes);
    }

    private static UndoStep fromProto(org.tcnfs.proto.recovery.UndoStep message) {
        int op = unsignedInt("op_index", message.getOpIndex());
        // A switch expression over the oneof's cases, without default: a new kind in recovery.proto does not
        // compile until it is decoded here.
        return switch (message.getKindCase()) {
            case RESTORE_RANGES -> {
                org.tcnfs.proto.recovery.RestoreRanges body = message.getRestoreRanges();
                List<SavedRange> ranges = new ArrayList<>(body.getRangesCount());
                for (int i = 0; i < body.getRangesCount(); i++) {
                    org.tcnfs.proto.recovery.SavedRange range = body.getRanges(i);
                    ranges.add(within("restore_ranges.ranges[" + i + "]", () -> fromProto(range)));
                }
                yield new UndoStep.RestoreRanges(op, fromProto("restore_ranges.target", body.getTarget()),
                        unsignedLong("restore_ranges.old_size", body.getOldSize()), ranges);
            }
            case RESTORE_SIZE -> {
                org.tcnfs.proto.recovery.RestoreSize body = message.getRestoreSize();
                yield new UndoStep.RestoreSize(op, fromProto("restore_size.target", body.getTarget()),
                        unsignedLong("restore_size.old_size", body.getOldSize()));
            }
            case REMOVE_CREATED -> {
                org.tcnfs.proto.recovery.RemoveCreated body = message.getRemoveCreated();
                yield new UndoStep.RemoveCreated(op, fromProto("remove_created.target", body.getTarget()),
                        fromProto(body.getKind()));
            }
            case UNLINK_LINK -> new UndoStep.UnlinkLink(op, fromProto("unlink_link.link",
                    message.getUnlinkLink().getLink()));
            case MOVE_BACK -> {
                org.tcnfs.proto.recovery.MoveBack body = message.getMoveBack();
                yield new UndoStep.MoveBack(op, fromProto("move_back.original", body.getOriginal()),
                        fromProto(body.getKind()), path("move_back.backup", body.getBackup()));
            }
            case RENAME_BACK -> {
                org.tcnfs.proto.recovery.RenameBack body = message.getRenameBack();
                Optional<RelativePath> kept = body.hasKeptTargetBackup()
                        ? Optional.of(path("rename_back.kept_target_backup", body.getKeptTargetBackup()))
                        : Optional.empty();
                yield new UndoStep.RenameBack(op, fromProto("rename_back.from", body.getFrom()),
                        fromProto("rename_back.to", body.getTo()), kept);
            }
            case RESTORE_ATTRIBUTES -> {
                org.tcnfs.proto.recovery.RestoreAttributes body = message.getRestoreAttributes();
                yield new UndoStep.RestoreAttributes(op, fromProto("restore_attributes.target", body.getTarget()),
                        within("restore_attributes.old", () -> fromProto(body.getOld())));
            }
            case KIND_NOT_SET -> throw new IllegalArgumentException("undo step of no kind known to this version"
                    + " (written by a newer server?); refusing to skip it");
        };
    }

    private static SavedRange fromProto(org.tcnfs.proto.recovery.SavedRange message) {
        long offset = unsignedLong("offset", message.getOffset());
        long length = unsignedLong("length", message.getLength());
        switch (message.getSourceCase()) {
            case BACKUP:
                return SavedRange.inBackup(offset, length, path("backup.file", message.getBackup().getFile()),
                        unsignedLong("backup.file_offset", message.getBackup().getFileOffset()));
            case INLINE_DATA:
                return new SavedRange(offset, length, new SavedRange.Inline(message.getInlineData().toByteArray()));
            case HOLE:
                return SavedRange.hole(offset, length);
            case SOURCE_NOT_SET:
                throw new IllegalArgumentException("saved range without a source");
            default:
                throw new IllegalArgumentException("saved range of unknown source " + message.getSourceCase());
        }
    }

    private static ObjectRef fromProto(String where, org.tcnfs.proto.recovery.ObjectRef message) {
        return within(where, () -> {
            RelativePath path = path("path", message.getPath());
            ByteString handle = message.getHandle();
            Optional<ObjectHandle> objectHandle = handle.isEmpty()
                    ? Optional.empty()
                    : Optional.of(ObjectHandle.of(handle.toByteArray()));
            OptionalLong fileId = message.hasFileId() ? OptionalLong.of(message.getFileId()) : OptionalLong.empty();
            return new ObjectRef(path, objectHandle, fileId);
        });
    }

    private static Attributes fromProto(org.tcnfs.proto.recovery.Attributes message) {
        return new Attributes(
                message.hasMode() ? OptionalInt.of(message.getMode()) : OptionalInt.empty(),
                message.hasUid() ? OptionalInt.of(message.getUid()) : OptionalInt.empty(),
                message.hasGid() ? OptionalInt.of(message.getGid()) : OptionalInt.empty(),
                message.hasSize() ? OptionalLong.of(unsignedLong("size", message.getSize())) : OptionalLong.empty(),
                message.hasAtime() ? Optional.of(fromProto("atime", message.getAtime())) : Optional.empty(),
                message.hasMtime() ? Optional.of(fromProto("mtime", message.getMtime())) : Optional.empty());
    }

    private static Instant fromProto(String where, UnixTime message) {
        long seconds = message.getSeconds();
        int nanos = message.getNanos();
        if (seconds < Instant.MIN.getEpochSecond() || seconds > Instant.MAX.getEpochSecond()) {
            throw new IllegalArgumentException(where + ": seconds out of range: " + seconds);
        }
        if (nanos < 0 || nanos >= NANOS_PER_SECOND) {
            throw new IllegalArgumentException(where + ": nanos not within 0..999999999: "
                    + Integer.toUnsignedString(nanos));
        }
        return Instant.ofEpochSecond(seconds, nanos);
    }

    private static ObjectKind fromProto(org.tcnfs.proto.recovery.ObjectKind kind) {
        switch (kind) {
            case OBJECT_KIND_REGULAR: return ObjectKind.REGULAR;
            case OBJECT_KIND_DIRECTORY: return ObjectKind.DIRECTORY;
            case OBJECT_KIND_SYMLINK: return ObjectKind.SYMLINK;
            case OBJECT_KIND_BLOCK: return ObjectKind.BLOCK;
            case OBJECT_KIND_CHAR: return ObjectKind.CHAR;
            case OBJECT_KIND_SOCKET: return ObjectKind.SOCKET;
            case OBJECT_KIND_FIFO: return ObjectKind.FIFO;
            default: throw new IllegalArgumentException("object kind missing or unknown: " + kind);
        }
    }

    private static LockMode fromProto(org.tcnfs.proto.recovery.LockMode mode) {
        switch (mode) {
            case LOCK_MODE_READ: return LockMode.READ;
            case LOCK_MODE_WRITE: return LockMode.WRITE;
            default: throw new IllegalArgumentException("lock mode missing or unknown: " + mode);
        }
    }

    private static RelativePath path(String where, String value) {
        return within(where, () -> RelativePath.of(value));
    }

    private static int unsignedInt(String where, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(where + " too large: " + Integer.toUnsignedString(value));
        }
        return value;
    }

    private static long unsignedLong(String where, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(where + " too large: " + Long.toUnsignedString(value));
        }
        return value;
    }

    /** Runs {@code conversion}, prefixing the message of any rule it breaks with {@code where}. */
    private static <T> T within(String where, Conversion<T> conversion) {
        try {
            return conversion.convert();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface Conversion<T> {
        T convert();
    }
}
