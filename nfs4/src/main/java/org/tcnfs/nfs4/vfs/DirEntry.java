package org.tcnfs.nfs4.vfs;

import java.util.Objects;

/**
 * One entry of a directory listing.
 *
 * @param name the entry's name
 * @param cookie the position to resume after this entry (never 0, 1 or 2, which NFSv4 reserves)
 * @param stat the entry's attributes
 */
public record DirEntry(String name, long cookie, Stat stat) {
    public DirEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(stat, "stat");
        if (cookie >= 0 && cookie <= 2) {
            throw new IllegalArgumentException("cookies 0-2 are reserved: " + cookie);
        }
    }
}
