package org.tcnfs.client.vector;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Creates or truncates the file at {@code path} and writes the local file {@code local} into it, read in parts
 * as it is sent ({@link VnfsClient#vwriteFiles}), so the client never holds the whole file.
 *
 * @param path the remote file, relative to the export
 * @param local the local file whose bytes are written
 * @param mode the permission bits of a file the write creates
 */
public record VWriteFile(String path, Path local, int mode) {
    public VWriteFile {
        path = RemotePath.normalize(path);
        if (path.isEmpty()) {
            throw new IllegalArgumentException("cannot write the export's root");
        }
        Objects.requireNonNull(local, "local");
        if ((mode & ~07777) != 0) {
            throw new IllegalArgumentException("mode " + Integer.toOctalString(mode));
        }
    }
}
