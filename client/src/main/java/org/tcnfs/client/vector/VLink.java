package org.tcnfs.client.vector;

/**
 * Makes a hard link {@code newPath} to the existing file {@code existing}.
 *
 * @param existing relative to the export
 * @param newPath relative to the export
 */
public record VLink(String existing, String newPath) implements TxnItem {
    public VLink {
        existing = RemotePath.normalize(existing);
        newPath = RemotePath.normalize(newPath);
        RemotePath.requireNotRoot("link", existing, newPath);
    }
}
