package org.tcnfs.nfs4.vfs;

/**
 * Attribute changes of one SETATTR (or of the create attributes of OPEN and CREATE). A {@code null}
 * component is left unchanged.
 *
 * @param mode new permission bits ({@code 07777} at most)
 * @param uid new numeric owner
 * @param gid new numeric group
 * @param size new size (truncate or extend)
 * @param atime new access time
 * @param mtime new modification time
 */
public record SetAttributes(Integer mode, Integer uid, Integer gid, Long size, TimeChange atime, TimeChange mtime) {

    /** No change at all. */
    public static final SetAttributes NONE = new SetAttributes(null, null, null, null, null, null);

    public SetAttributes {
        if (mode != null && (mode & ~07777) != 0) {
            throw new IllegalArgumentException("mode has bits beyond 07777: " + Integer.toOctalString(mode));
        }
        if (size != null && size < 0) {
            throw new IllegalArgumentException("negative size " + size);
        }
    }

    /** Whether nothing is to change. */
    public boolean isEmpty() {
        return mode == null && uid == null && gid == null && size == null && atime == null && mtime == null;
    }

    public SetAttributes withMode(Integer newMode) {
        return new SetAttributes(newMode, uid, gid, size, atime, mtime);
    }

    public SetAttributes withOwner(Integer newUid, Integer newGid) {
        return new SetAttributes(mode, newUid, newGid, size, atime, mtime);
    }

    public SetAttributes withSize(Long newSize) {
        return new SetAttributes(mode, uid, gid, newSize, atime, mtime);
    }

    public SetAttributes withTimes(TimeChange newAtime, TimeChange newMtime) {
        return new SetAttributes(mode, uid, gid, size, newAtime, newMtime);
    }
}
