package org.tcnfs.client.vector;

import java.util.Objects;

/**
 * Creates a symbolic link at {@code path} whose content is {@code target} (not resolved, not checked).
 *
 * @param path relative to the export
 * @param target the link's text
 */
public record VSymlink(String path, String target) implements TxnItem {
    public VSymlink {
        path = RemotePath.normalize(path);
        Objects.requireNonNull(target, "target");
        if (path.isEmpty()) {
            throw new IllegalArgumentException("the export's root exists");
        }
    }
}
