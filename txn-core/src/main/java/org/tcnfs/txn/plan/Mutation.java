package org.tcnfs.txn.plan;

import java.util.List;
import java.util.Objects;
import org.tcnfs.nfs4.vfs.FileType;

/**
 * One change a compound will make if its operation succeeds, as the backup and undo layers need it. A plan
 * lists them in operation order ({@link #opIndex}); one operation may make several (an OPEN that creates and
 * truncates, a SETATTR that sets the size and other attributes).
 *
 * <p>The planner never asks whether names exist, so a change may turn out to be none (OPEN UNCHECKED4 of an
 * existing file creates nothing; RENAME may or may not replace a target): the backup layer looks at the
 * objects before the compound runs and keeps what each change would lose.
 */
public sealed interface Mutation permits Mutation.Write, Mutation.SizeChange, Mutation.AttributeChange,
        Mutation.Creation, Mutation.Removal, Mutation.Rename, Mutation.HardLink {

    /** Position of the operation in the compound. */
    int opIndex();

    /**
     * Calls the method of {@code visitor} for this kind of mutation.
     *
     * @param <R> what the visitor answers
     * @param <X> what the visitor may throw
     * @param visitor the treatment of every kind
     * @return the visitor's answer for this mutation
     * @throws X if the visitor throws
     */
    <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X;

    /**
     * A treatment of mutations with one method per kind (the undo preparer's is how each kind's undo is
     * prepared): a new kind of mutation is a new method here, and every treatment stops compiling until it
     * knows the kind (Java 17 has no exhaustive {@code switch} over sealed types).
     *
     * @param <R> what each method answers
     * @param <X> what each method may throw ({@link RuntimeException} if nothing checked)
     */
    interface Visitor<R, X extends Exception> {
        R write(Write m) throws X;

        R sizeChange(SizeChange m) throws X;

        R attributeChange(AttributeChange m) throws X;

        R creation(Creation m) throws X;

        R removal(Removal m) throws X;

        R rename(Rename m) throws X;

        R hardLink(HardLink m) throws X;
    }

    private static void checkIndex(int opIndex) {
        if (opIndex < 0) {
            throw new IllegalArgumentException("negative op index " + opIndex);
        }
    }

    /**
     * WRITE of {@code length} bytes at {@code offset} of a file (a WRITE of no bytes changes nothing and is
     * not listed). Bytes of the range below the file's old size are overwritten; bytes past it are new.
     *
     * @param opIndex the WRITE's position
     * @param file the file
     * @param offset first byte, at least 0
     * @param length number of bytes, at least 1; {@code offset + length} does not overflow
     */
    record Write(int opIndex, ObjectRef file, long offset, long length) implements Mutation {
        @Override
        public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
            return visitor.write(this);
        }

        public Write {
            checkIndex(opIndex);
            Objects.requireNonNull(file, "file");
            if (offset < 0 || length <= 0 || offset > Long.MAX_VALUE - length) {
                throw new IllegalArgumentException("bad range: " + length + " bytes at " + offset);
            }
        }

        /** The first byte after the range. */
        public long end() {
            return offset + length;
        }
    }

    /**
     * A change of a regular file's size: bytes at and past {@code newSize} are lost if the file was longer;
     * a larger size only extends it.
     *
     * @param opIndex the operation's position
     * @param file the file
     * @param newSize the size it will have, at least 0
     * @param cause the operation that changes it
     */
    record SizeChange(int opIndex, ObjectRef file, long newSize, Cause cause) implements Mutation {
        /** What changes the size. */
        public enum Cause {
            /** SETATTR with the size attribute. */
            SETATTR,
            /** OPEN with UNCHECKED4 and size 0 among the create attributes: truncates an existing file. */
            OPEN_TRUNCATE
        }

        @Override
        public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
            return visitor.sizeChange(this);
        }

        public SizeChange {
            checkIndex(opIndex);
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(cause, "cause");
            if (newSize < 0) {
                throw new IllegalArgumentException("negative size " + newSize);
            }
        }
    }

    /**
     * SETATTR of some attributes of an object (the size among them is also listed as a {@link SizeChange}).
     *
     * @param opIndex the SETATTR's position
     * @param object the object
     * @param attributes the attribute numbers set (RFC 8881 section 5, such as 33 for mode), ascending,
     *     not empty
     */
    record AttributeChange(int opIndex, ObjectRef object, List<Integer> attributes) implements Mutation {
        @Override
        public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
            return visitor.attributeChange(this);
        }

        public AttributeChange {
            checkIndex(opIndex);
            Objects.requireNonNull(object, "object");
            attributes = List.copyOf(attributes);
            if (attributes.isEmpty()) {
                throw new IllegalArgumentException("no attributes");
            }
        }

        /** Whether attribute {@code number} is among those set. */
        public boolean sets(int number) {
            return attributes.contains(number);
        }
    }

    /**
     * CREATE of a non-regular object, or OPEN with OPEN4_CREATE of a regular file.
     *
     * @param opIndex the operation's position
     * @param object where it is created ({@link ObjectRef#origin} is present when an existing object may be
     *     opened instead, see {@link How#mayFindExisting})
     * @param type what is created
     * @param how which operation and mode
     */
    record Creation(int opIndex, ObjectRef object, FileType type, How how) implements Mutation {
        /** The operation and create mode. */
        public enum How {
            /** CREATE: fails if the name exists. */
            CREATE,
            /** OPEN UNCHECKED4: opens an existing file instead (and may truncate it). */
            OPEN_UNCHECKED,
            /** OPEN GUARDED4: fails if the name exists. */
            OPEN_GUARDED,
            /** OPEN EXCLUSIVE4 or EXCLUSIVE4_1: an existing file is only accepted as a retransmission. */
            OPEN_EXCLUSIVE;

            /** Whether the operation may succeed on an existing object without creating anything. */
            public boolean mayFindExisting() {
                return this == OPEN_UNCHECKED || this == OPEN_EXCLUSIVE;
            }
        }

        @Override
        public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
            return visitor.creation(this);
        }

        public Creation {
            checkIndex(opIndex);
            Objects.requireNonNull(object, "object");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(how, "how");
        }
    }

    /**
     * REMOVE of a name (a file, any non-directory, or an empty directory).
     *
     * @param opIndex the REMOVE's position
     * @param object the name removed and the object it names
     */
    record Removal(int opIndex, ObjectRef object) implements Mutation {
        @Override
        public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
            return visitor.removal(this);
        }

        public Removal {
            checkIndex(opIndex);
            Objects.requireNonNull(object, "object");
        }
    }

    /**
     * RENAME of {@code source} to {@code target}, which it replaces if it exists. Renaming a directory moves
     * everything beneath it.
     *
     * @param opIndex the RENAME's position
     * @param source the name renamed and the object it names
     * @param target the new name and the object it names now, if any (replaced)
     */
    record Rename(int opIndex, ObjectRef source, ObjectRef target) implements Mutation {
        @Override
        public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
            return visitor.rename(this);
        }

        public Rename {
            checkIndex(opIndex);
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(target, "target");
        }
    }

    /**
     * LINK: a new name for an existing non-directory object.
     *
     * @param opIndex the LINK's position
     * @param source the object linked (its link count changes)
     * @param newName the name created; the compound creates it, so its origin is empty
     */
    record HardLink(int opIndex, ObjectRef source, ObjectRef newName) implements Mutation {
        @Override
        public <R, X extends Exception> R accept(Visitor<R, X> visitor) throws X {
            return visitor.hardLink(this);
        }

        public HardLink {
            checkIndex(opIndex);
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(newName, "newName");
        }
    }
}
