package org.tcnfs.proto;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Attribute values of one object; an empty component is not known (in a pre-image) or not to be restored
 * (in {@link UndoStep.RestoreAttributes}).
 *
 * @param mode permission bits, {@code 07777} at most
 * @param uid numeric owner (all 32 bits, unsigned)
 * @param gid numeric group (all 32 bits, unsigned)
 * @param size size in bytes
 * @param atime last access
 * @param mtime last data modification
 */
public record Attributes(OptionalInt mode, OptionalInt uid, OptionalInt gid, OptionalLong size,
        Optional<Instant> atime, Optional<Instant> mtime) {

    /** No attribute at all. */
    public static final Attributes NONE = new Attributes(OptionalInt.empty(), OptionalInt.empty(),
            OptionalInt.empty(), OptionalLong.empty(), Optional.empty(), Optional.empty());

    public Attributes {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(uid, "uid");
        Objects.requireNonNull(gid, "gid");
        Objects.requireNonNull(size, "size");
        Objects.requireNonNull(atime, "atime");
        Objects.requireNonNull(mtime, "mtime");
        if (mode.isPresent() && (mode.getAsInt() & ~07777) != 0) {
            throw new IllegalArgumentException("mode has bits beyond 07777: " + Integer.toOctalString(mode.getAsInt()));
        }
        if (size.isPresent() && size.getAsLong() < 0) {
            throw new IllegalArgumentException("negative size " + size.getAsLong());
        }
    }

    /** Whether no attribute is present. */
    public boolean isEmpty() {
        return mode.isEmpty() && uid.isEmpty() && gid.isEmpty() && size.isEmpty() && atime.isEmpty()
                && mtime.isEmpty();
    }

    /** These attributes with {@code newMode}. */
    public Attributes withMode(int newMode) {
        return new Attributes(OptionalInt.of(newMode), uid, gid, size, atime, mtime);
    }

    /** These attributes with owner {@code newUid}. */
    public Attributes withUid(int newUid) {
        return new Attributes(mode, OptionalInt.of(newUid), gid, size, atime, mtime);
    }

    /** These attributes with group {@code newGid}. */
    public Attributes withGid(int newGid) {
        return new Attributes(mode, uid, OptionalInt.of(newGid), size, atime, mtime);
    }

    /** These attributes with {@code newSize}. */
    public Attributes withSize(long newSize) {
        return new Attributes(mode, uid, gid, OptionalLong.of(newSize), atime, mtime);
    }

    /** These attributes with access time {@code newAtime}. */
    public Attributes withAtime(Instant newAtime) {
        return new Attributes(mode, uid, gid, size, Optional.of(newAtime), mtime);
    }

    /** These attributes with modification time {@code newMtime}. */
    public Attributes withMtime(Instant newMtime) {
        return new Attributes(mode, uid, gid, size, atime, Optional.of(newMtime));
    }
}
