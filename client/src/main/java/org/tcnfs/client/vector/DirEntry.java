package org.tcnfs.client.vector;

import java.util.Objects;

/**
 * One entry of a directory listing.
 *
 * @param path the entry's path relative to the export
 * @param name its name in its directory
 * @param info its attributes
 */
public record DirEntry(String path, String name, FileInfo info) {
    public DirEntry {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(info, "info");
    }
}
