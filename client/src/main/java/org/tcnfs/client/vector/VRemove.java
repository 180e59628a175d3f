package org.tcnfs.client.vector;

/**
 * Removes the file, symbolic link or empty directory at {@code path}.
 *
 * @param path relative to the export
 */
public record VRemove(String path) implements TxnItem {
    public VRemove {
        path = RemotePath.normalize(path);
        RemotePath.requireNotRoot("remove", path);
    }
}
