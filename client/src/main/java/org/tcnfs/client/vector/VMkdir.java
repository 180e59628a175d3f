package org.tcnfs.client.vector;

/**
 * Creates the directory {@code path}; its parent must exist (or be created by an earlier item).
 *
 * @param path relative to the export
 * @param mode permission bits
 */
public record VMkdir(String path, int mode) implements TxnItem {
    /** Permission bits of created directories unless given. */
    public static final int DEFAULT_MODE = 0755;

    public VMkdir {
        path = RemotePath.normalize(path);
        if (path.isEmpty()) {
            throw new IllegalArgumentException("the export's root exists");
        }
        if ((mode & ~07777) != 0) {
            throw new IllegalArgumentException("mode " + Integer.toOctalString(mode));
        }
    }

    public VMkdir(String path) {
        this(path, DEFAULT_MODE);
    }
}
