package org.tcnfs.proto;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything needed to take a transactional COMPOUND back after a crash, with no in-memory state left
 * (DESIGN.md step 5): written durably before the first change, deleted at commit, after a rollback, or by
 * recovery once its undo is durable. {@link RecoveryRecords} turns it into bytes and back.
 *
 * @param txnId the transaction id, unique across restarts; positive
 * @param started when the transaction started; between the years 1677 and 2262 (nanoseconds since the
 *     epoch fit a {@code long})
 * @param exportId the export whose root every path is relative to; not empty
 * @param backupDirectory the directory holding the transaction's backups (an absolute local path, or a path
 *     relative to the export root), if it keeps any
 * @param lockKeys the plan: every lock key the transaction holds
 * @param preImages what the changed names and objects were like before
 * @param steps one undo step per change, in the order of the changes; op indexes do not decrease and are
 *     below {@code opCount}
 * @param opCount number of operations in the COMPOUND
 * @param tag the COMPOUND's tag (may be empty)
 * @param undoneSteps how many steps, counted from the end, are undone and durable; 0 while it runs
 * @param undoAttempts how many undo attempts failed
 * @param lastUndoError the message of the last failed undo attempt, if one failed (an empty message counts
 *     as none)
 */
public record RecoveryRecord(long txnId, Instant started, String exportId, Optional<String> backupDirectory,
        List<LockKey> lockKeys, List<PreImage> preImages, List<UndoStep> steps, int opCount, String tag,
        int undoneSteps, int undoAttempts, Optional<String> lastUndoError) {

    /** Earliest start time a record can hold. */
    public static final Instant EARLIEST = Instant.ofEpochSecond(0, Long.MIN_VALUE);

    /** Latest start time a record can hold. */
    public static final Instant LATEST = Instant.ofEpochSecond(0, Long.MAX_VALUE);

    public RecoveryRecord {
        if (txnId <= 0) {
            throw new IllegalArgumentException("transaction id must be positive, not " + txnId);
        }
        Objects.requireNonNull(started, "started");
        if (started.isBefore(EARLIEST) || started.isAfter(LATEST)) {
            throw new IllegalArgumentException("start time out of range: " + started);
        }
        Objects.requireNonNull(exportId, "exportId");
        if (exportId.isEmpty() || exportId.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("export id must be non-empty and without NUL");
        }
        Objects.requireNonNull(backupDirectory, "backupDirectory");
        if (backupDirectory.isPresent()
                && (backupDirectory.get().isEmpty() || backupDirectory.get().indexOf('\0') >= 0)) {
            throw new IllegalArgumentException("backup directory must be non-empty and without NUL");
        }
        lockKeys = List.copyOf(lockKeys);
        preImages = List.copyOf(preImages);
        steps = List.copyOf(steps);
        Objects.requireNonNull(tag, "tag");
        lastUndoError = Objects.requireNonNull(lastUndoError, "lastUndoError").filter(error -> !error.isEmpty());
        if (opCount < 0) {
            throw new IllegalArgumentException("negative op count " + opCount);
        }
        int previousOp = 0;
        for (int i = 0; i < steps.size(); i++) {
            int op = steps.get(i).opIndex();
            if (op < previousOp) {
                throw new IllegalArgumentException("step " + i + " belongs to op " + op + ", before op "
                        + previousOp + " of the step before it");
            }
            if (op >= opCount) {
                throw new IllegalArgumentException("step " + i + " belongs to op " + op + " of a compound of "
                        + opCount + " ops");
            }
            previousOp = op;
        }
        if (undoneSteps < 0 || undoneSteps > steps.size()) {
            throw new IllegalArgumentException("undone steps " + undoneSteps + " not within 0.." + steps.size());
        }
        if (undoAttempts < 0) {
            throw new IllegalArgumentException("negative undo attempts " + undoAttempts);
        }
    }

    /**
     * A builder for a record of transaction {@code txnId} on export {@code exportId}, started at
     * {@code started}.
     */
    public static Builder builder(long txnId, String exportId, Instant started) {
        return new Builder(txnId, exportId, started);
    }

    /** A builder holding this record's values. */
    public Builder toBuilder() {
        Builder builder = new Builder(txnId, exportId, started);
        builder.backupDirectory = backupDirectory;
        builder.lockKeys.addAll(lockKeys);
        builder.preImages.addAll(preImages);
        builder.steps.addAll(steps);
        builder.opCount = opCount;
        builder.tag = tag;
        builder.undoneSteps = undoneSteps;
        builder.undoAttempts = undoAttempts;
        builder.lastUndoError = lastUndoError;
        return builder;
    }

    /**
     * The steps still to undo, in the order to undo them: last to first, leaving out the
     * {@link #undoneSteps()} already undone.
     */
    public List<UndoStep> pendingUndo() {
        List<UndoStep> pending = new ArrayList<>(steps.subList(0, steps.size() - undoneSteps));
        Collections.reverse(pending);
        return List.copyOf(pending);
    }

    /** This record after {@code count} steps, from the end, have been undone and made durable. */
    public RecoveryRecord withUndoneSteps(int count) {
        return new RecoveryRecord(txnId, started, exportId, backupDirectory, lockKeys, preImages, steps, opCount,
                tag, count, undoAttempts, lastUndoError);
    }

    /** This record after one more failed undo attempt, whose failure reads {@code error}. */
    public RecoveryRecord withFailedUndo(String error) {
        return new RecoveryRecord(txnId, started, exportId, backupDirectory, lockKeys, preImages, steps, opCount,
                tag, undoneSteps, undoAttempts + 1, Optional.of(error));
    }

    /** Builds a {@link RecoveryRecord}; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {

        private final long txnId;
        private final String exportId;
        private final Instant started;
        private Optional<String> backupDirectory = Optional.empty();
        private final List<LockKey> lockKeys = new ArrayList<>();
        private final List<PreImage> preImages = new ArrayList<>();
        private final List<UndoStep> steps = new ArrayList<>();
        private int opCount;
        private String tag = "";
        private int undoneSteps;
        private int undoAttempts;
        private Optional<String> lastUndoError = Optional.empty();

        private Builder(long txnId, String exportId, Instant started) {
            this.txnId = txnId;
            this.exportId = exportId;
            this.started = started;
        }

        /** The directory holding the transaction's backups. */
        public Builder backupDirectory(String directory) {
            this.backupDirectory = Optional.of(directory);
            return this;
        }

        /** Adds a lock key of the plan. */
        public Builder lockKey(LockKey key) {
            lockKeys.add(Objects.requireNonNull(key, "key"));
            return this;
        }

        /** Adds lock keys of the plan. */
        public Builder lockKeys(List<LockKey> keys) {
            keys.forEach(this::lockKey);
            return this;
        }

        /** Adds a pre-image. */
        public Builder preImage(PreImage preImage) {
            preImages.add(Objects.requireNonNull(preImage, "preImage"));
            return this;
        }

        /** Adds the next undo step. */
        public Builder step(UndoStep step) {
            steps.add(Objects.requireNonNull(step, "step"));
            return this;
        }

        /** Number of operations in the COMPOUND (0 until set; every step's op index must be below it). */
        public Builder opCount(int count) {
            this.opCount = count;
            return this;
        }

        /** The COMPOUND's tag. */
        public Builder tag(String compoundTag) {
            this.tag = compoundTag;
            return this;
        }

        /** How many steps, from the end, are undone. */
        public Builder undoneSteps(int count) {
            this.undoneSteps = count;
            return this;
        }

        /** How many undo attempts failed, and the last failure's message. */
        public Builder failedUndo(int attempts, String lastError) {
            this.undoAttempts = attempts;
            this.lastUndoError = Optional.of(lastError);
            return this;
        }

        /**
         * The record.
         *
         * @throws IllegalArgumentException if a value breaks the record's rules
         */
        public RecoveryRecord build() {
            return new RecoveryRecord(txnId, started, exportId, backupDirectory, lockKeys, preImages, steps,
                    opCount, tag, undoneSteps, undoAttempts, lastUndoError);
        }
    }
}
