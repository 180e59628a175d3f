package org.tcnfs.client.vector;

/**
 * Copies the file {@code from} to {@code to} (created or truncated).
 *
 * @param from relative to the export
 * @param to relative to the export
 */
public record VCopy(String from, String to) {
    public VCopy {
        from = RemotePath.normalize(from);
        to = RemotePath.normalize(to);
        RemotePath.requireNotRoot("copy", from, to);
    }
}
