package org.tcnfs.nfs4.vfs;

import java.time.Instant;
import java.util.Objects;

/**
 * What a file system knows of one object.
 *
 * @param type the kind of object
 * @param mode permission bits including set-uid, set-gid and sticky ({@code 07777} at most)
 * @param nlink number of hard links
 * @param uid numeric owner
 * @param gid numeric group
 * @param size size in bytes
 * @param spaceUsed bytes of storage the object occupies
 * @param fileId a number unique to the object within its file system ({@code fileid})
 * @param rdevMajor major device number, for block and character devices
 * @param rdevMinor minor device number, for block and character devices
 * @param atime last access
 * @param mtime last data modification
 * @param ctime last change of data or metadata
 * @param btime creation time, or {@code null} where the file system does not keep it
 * @param change a value that changes whenever the object changes ({@code change} attribute)
 */
public record Stat(
        FileType type,
        int mode,
        int nlink,
        int uid,
        int gid,
        long size,
        long spaceUsed,
        long fileId,
        int rdevMajor,
        int rdevMinor,
        Instant atime,
        Instant mtime,
        Instant ctime,
        Instant btime,
        long change) {

    public Stat {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(atime, "atime");
        Objects.requireNonNull(mtime, "mtime");
        Objects.requireNonNull(ctime, "ctime");
        if ((mode & ~07777) != 0) {
            throw new IllegalArgumentException("mode has bits beyond 07777: " + Integer.toOctalString(mode));
        }
        if (size < 0) {
            throw new IllegalArgumentException("negative size " + size);
        }
    }
}
