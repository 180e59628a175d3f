package org.tcnfs.client.vector;

/**
 * Renames {@code from} to {@code to} (replacing an existing {@code to} as RENAME does).
 *
 * @param from the existing path, relative to the export
 * @param to the new path
 */
public record VRename(String from, String to) implements TxnItem {
    public VRename {
        from = RemotePath.normalize(from);
        to = RemotePath.normalize(to);
        RemotePath.requireNotRoot("rename", from, to);
    }
}
