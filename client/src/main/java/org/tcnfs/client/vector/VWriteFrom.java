package org.tcnfs.client.vector;

import java.util.Objects;

/**
 * Creates or truncates the file at {@code path} and writes into it the {@code length} bytes of {@code data} that
 * start at {@code offset}, read as they are sent ({@link VnfsClient#vtxn}): the client never holds the whole
 * file. A write larger than one compound is sent in parts at their offsets, inside one transaction.
 *
 * @param path the remote file, relative to the export
 * @param data where the bytes come from
 * @param offset where in {@code data} they start
 * @param length how many there are
 * @param mode the permission bits of a file the write creates
 */
public record VWriteFrom(String path, LocalData data, long offset, long length, int mode) implements TxnItem {
    public VWriteFrom {
        path = RemotePath.normalize(path);
        if (path.isEmpty()) {
            throw new IllegalArgumentException("cannot write the export's root");
        }
        Objects.requireNonNull(data, "data");
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("offset " + offset + ", length " + length);
        }
        if ((mode & ~07777) != 0) {
            throw new IllegalArgumentException("mode " + Integer.toOctalString(mode));
        }
    }
}
