package org.tcnfs.txn.backup;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The old contents of bytes {@code [offset, offset + length)} of {@code file}, and the file's old size,
 * saved before a WRITE or a size change overwrote them.
 *
 * <p>The requested range is clamped to the file's size at backup time: bytes past the old end of file are
 * not saved (there were none), only {@code oldSize}, so {@code offset + length <= oldSize} whenever
 * {@code length > 0} (a range wholly past the old end has length 0, at whatever offset). The backup file
 * holds the old bytes at the same offsets as {@code file} (a hole before them, and possibly neighbouring
 * bytes of the covering file system blocks): byte {@code offset + i} of {@code backupFile} is old byte
 * {@code offset + i} of {@code file}. Only the allocated extents of the range are saved: a hole of
 * {@code file} in the range is a hole of {@code backupFile}, and a restore punches it back.
 *
 * @param file the file that is about to change (absolute path)
 * @param offset first byte saved
 * @param length number of bytes saved; 0 when the range lay entirely at or past the old end of file
 * @param oldSize the file's size before the change; undo sets the size back to it
 * @param backupFile where the bytes are, {@code null} exactly when {@code method} is {@link Method#SIZE_ONLY}
 * @param method how the bytes were saved
 */
public record RangeBackup(Path file, long offset, long length, long oldSize, Path backupFile, Method method)
        implements Backup {

    /** How the old bytes were saved. */
    public enum Method {
        /** {@code FICLONERANGE}: the backup shares the old blocks; nothing was copied. */
        CLONED,
        /** The file system refused the clone; the bytes were copied. */
        COPIED,
        /** No bytes lay in the range (at or past the old end of file); only the old size is kept. */
        SIZE_ONLY
    }

    public RangeBackup {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(method, "method");
        if (offset < 0 || length < 0 || oldSize < 0) {
            throw new IllegalArgumentException("negative offset, length or size: " + offset + ", " + length + ", "
                    + oldSize);
        }
        if (length > 0 && length > oldSize - offset) {
            throw new IllegalArgumentException("range [" + offset + ", +" + length + ") ends past the old size "
                    + oldSize);
        }
        if ((method == Method.SIZE_ONLY) != (length == 0)) {
            throw new IllegalArgumentException(method + " with length " + length);
        }
        if ((method == Method.SIZE_ONLY) != (backupFile == null)) {
            throw new IllegalArgumentException(method + " with backup file " + backupFile);
        }
    }
}
