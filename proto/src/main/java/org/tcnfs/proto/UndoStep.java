package org.tcnfs.proto;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The undo of one change a transactional COMPOUND makes, one kind per row of DESIGN.md's table
 * "Operations and their undo". Steps are kept in the order the changes are made and undone last to first.
 *
 * <p><b>Idempotence.</b> Each step is described so that applying it again, or applying it when its
 * operation never ran (a crash before that op), changes nothing further; every record says what the undo
 * executor checks first. A sequence of steps is not idempotent as a whole (REMOVE a; CREATE a: replaying
 * "remove created a" after "move back a" would remove the original), so the executor records its progress
 * ({@link RecoveryRecord#undoneSteps()}) before it moves on from a step whose replay would not be safe.
 *
 * <p><b>Paths.</b> A step's paths are those of the tree when its operation runs. Undoing in reverse order
 * meets the tree in that same shape.
 *
 * <p><b>One place per kind.</b> Everything that treats steps by kind (the record's encoding in
 * {@code ProtoMapping}, the undo executor, the paths a step names) is a {@link Visitor}: a new kind of step is
 * a new method of {@link Visitor}, so every place that must know it stops compiling until it does, instead of
 * falling through an {@code instanceof} chain at run time.
 */
public sealed interface UndoStep {

    /** Position (0-based) in the COMPOUND of the operation that makes the change. */
    int opIndex();

    /**
     * Calls the method of {@code visitor} for this kind of step.
     *
     * @param <R> what the visitor answers
     * @param <X> what the visitor may throw
     * @param visitor the treatment of every kind
     * @return the visitor's answer for this step
     * @throws X if the visitor throws
     */
    <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X;

    /**
     * A treatment of undo steps with one method per kind of step, so that the compiler finds every treatment
     * a new kind of step needs (Java 17 has no exhaustive {@code switch} over sealed types).
     *
     * @param <R> what each method answers
     * @param <X> what each method may throw ({@link RuntimeException} if nothing checked)
     */
    interface Visitor<R, X extends Exception> {
        R restoreRanges(RestoreRanges step) throws X;

        R restoreSize(RestoreSize step) throws X;

        R removeCreated(RemoveCreated step) throws X;

        R unlinkLink(UnlinkLink step) throws X;

        R moveBack(MoveBack step) throws X;

        R renameBack(RenameBack step) throws X;

        R restoreAttributes(RestoreAttributes step) throws X;
    }

    /** Throws unless {@code opIndex} is a position. */
    private static void checkOpIndex(int opIndex) {
        if (opIndex < 0) {
            throw new IllegalArgumentException("negative op index " + opIndex);
        }
    }

    /**
     * Undo of WRITE, OPEN with truncate and SETATTR size that lose data: set the size back to
     * {@code oldSize}, then put back every saved range. Both are idempotent; data past {@code oldSize} was
     * never saved, restoring the size removes it. Applies only if the target's file id matches.
     *
     * @param opIndex position of the operation in the COMPOUND
     * @param target the file
     * @param oldSize its size before the operation
     * @param ranges the saved old contents: sorted by offset, not overlapping, each within {@code oldSize}
     */
    record RestoreRanges(int opIndex, ObjectRef target, long oldSize, List<SavedRange> ranges)
            implements UndoStep {

        @Override
        public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
            return visitor.restoreRanges(this);
        }

        public RestoreRanges {
            checkOpIndex(opIndex);
            Objects.requireNonNull(target, "target").requireBelowRoot("a file whose ranges are restored");
            ranges = List.copyOf(ranges);
            if (oldSize < 0) {
                throw new IllegalArgumentException("negative old size " + oldSize);
            }
            long previousEnd = 0;
            for (SavedRange range : ranges) {
                if (range.offset() < previousEnd) {
                    throw new IllegalArgumentException("saved range at " + range.offset()
                            + " overlaps or precedes the one before it (ending at " + previousEnd + ")");
                }
                previousEnd = range.end();
            }
            if (previousEnd > oldSize) {
                throw new IllegalArgumentException("saved ranges end at " + previousEnd + ", past the old size "
                        + oldSize);
            }
        }
    }

    /**
     * Undo of a size change that lost no data (growing a file, or a cut whose bytes another step saved):
     * set the size back to {@code oldSize}. Applies only if the target's file id matches.
     *
     * @param opIndex position of the operation in the COMPOUND
     * @param target the file
     * @param oldSize its size before the operation
     */
    record RestoreSize(int opIndex, ObjectRef target, long oldSize) implements UndoStep {

        @Override
        public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
            return visitor.restoreSize(this);
        }

        public RestoreSize {
            checkOpIndex(opIndex);
            Objects.requireNonNull(target, "target").requireBelowRoot("a file whose size is restored");
            if (oldSize < 0) {
                throw new IllegalArgumentException("negative old size " + oldSize);
            }
        }
    }

    /**
     * Undo of OPEN create and CREATE (directory, symlink, special): remove the object at the target's path
     * if it is there and of this kind. The name was free before, so nothing else can be at it unless a
     * later step already put something back, which {@link RecoveryRecord#undoneSteps()} rules out. A
     * directory is removed once empty: what the transaction created inside it comes later in the steps
     * and is undone first.
     *
     * @param opIndex position of the operation in the COMPOUND
     * @param target the new object's path, with its handle as the transaction registered it
     * @param kind its kind
     */
    record RemoveCreated(int opIndex, ObjectRef target, ObjectKind kind) implements UndoStep {

        @Override
        public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
            return visitor.removeCreated(this);
        }

        public RemoveCreated {
            checkOpIndex(opIndex);
            Objects.requireNonNull(target, "target").requireBelowRoot("a created object");
            Objects.requireNonNull(kind, "kind");
        }
    }

    /**
     * Undo of LINK: remove the new name if it still names the linked object.
     *
     * @param opIndex position of the operation in the COMPOUND
     * @param link the new name, with the identity of the object it links to
     */
    record UnlinkLink(int opIndex, ObjectRef link) implements UndoStep {

        @Override
        public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
            return visitor.unlinkLink(this);
        }

        public UnlinkLink {
            checkOpIndex(opIndex);
            Objects.requireNonNull(link, "link").requireBelowRoot("a new link");
        }
    }

    /**
     * Undo of REMOVE (a file, or an empty directory): the victim was kept in the backup directory before the
     * operation (a file by a hard link, a directory moved there with an empty stand-in left at its name); move
     * it back to its name if the backup is there and the name is free (an empty directory still at the name,
     * the stand-in, is removed first).
     *
     * @param opIndex position of the operation in the COMPOUND
     * @param original the removed name, with the victim's identity
     * @param kind the victim's kind
     * @param backup where the victim was moved, relative to the record's backup directory
     */
    record MoveBack(int opIndex, ObjectRef original, ObjectKind kind, RelativePath backup) implements UndoStep {

        @Override
        public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
            return visitor.moveBack(this);
        }

        public MoveBack {
            checkOpIndex(opIndex);
            Objects.requireNonNull(original, "original").requireBelowRoot("a removed name");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(backup, "backup");
            if (backup.isRoot()) {
                throw new IllegalArgumentException("a moved victim needs a backup name");
            }
        }
    }

    /**
     * Undo of RENAME from -> to: rename {@code to} back to {@code from} if the object at {@code to} is the
     * renamed one and {@code from} is free; then, if an existing target was kept (moved into the backup
     * directory before the rename), move it back to {@code to} if it is there and {@code to} is free.
     *
     * @param opIndex position of the operation in the COMPOUND
     * @param from the old name, with the identity of the renamed object
     * @param to the new name, with the identity of the target it replaced, if there was one
     * @param keptTargetBackup where the replaced target was kept, relative to the record's backup directory;
     *     empty if {@code to} was free
     */
    record RenameBack(int opIndex, ObjectRef from, ObjectRef to, Optional<RelativePath> keptTargetBackup)
            implements UndoStep {

        @Override
        public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
            return visitor.renameBack(this);
        }

        public RenameBack {
            checkOpIndex(opIndex);
            Objects.requireNonNull(from, "from").requireBelowRoot("a rename source");
            Objects.requireNonNull(to, "to").requireBelowRoot("a rename target");
            Objects.requireNonNull(keptTargetBackup, "keptTargetBackup");
            if (keptTargetBackup.isPresent() && keptTargetBackup.get().isRoot()) {
                throw new IllegalArgumentException("a kept rename target needs a backup name");
            }
        }
    }

    /**
     * Undo of SETATTR mode, owner, group and times (and of a size change that lost no data): set back every
     * attribute present in {@code old}. Applies only if the target's file id matches.
     *
     * @param opIndex position of the operation in the COMPOUND
     * @param target the object (may be the export root)
     * @param old the values before the change, only of the attributes the operation changes; not empty
     */
    record RestoreAttributes(int opIndex, ObjectRef target, Attributes old) implements UndoStep {

        @Override
        public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
            return visitor.restoreAttributes(this);
        }

        public RestoreAttributes {
            checkOpIndex(opIndex);
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(old, "old");
            if (old.isEmpty()) {
                throw new IllegalArgumentException("nothing to restore for " + target.path());
            }
        }
    }
}
