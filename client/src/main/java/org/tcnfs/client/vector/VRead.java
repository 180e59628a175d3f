package org.tcnfs.client.vector;

/**
 * Reads {@code length} bytes at {@code offset} of the file {@code path} (fewer at its end).
 *
 * @param path relative to the export
 * @param offset where to start
 * @param length how many bytes; {@link #TO_END} for everything up to the end of the file
 */
public record VRead(String path, long offset, long length) {
    /** {@code length} meaning "to the end of the file". */
    public static final long TO_END = -1;

    public VRead {
        path = RemotePath.normalize(path);
        if (offset < 0 || length < TO_END) {
            throw new IllegalArgumentException("offset " + offset + ", length " + length);
        }
    }

    /** The whole file. */
    public static VRead whole(String path) {
        return new VRead(path, 0, TO_END);
    }
}
