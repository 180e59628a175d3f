package org.tcnfs.nfs4.vfs;

import java.util.List;

/**
 * Entries of a directory from a cookie on.
 *
 * @param verifier identifies the directory's contents the cookies belong to ({@code cookieverf4}, 8 bytes)
 * @param entries entries after the requested cookie, in cookie order
 * @param complete whether {@code entries} reaches the end of the directory
 */
public record DirectoryListing(byte[] verifier, List<DirEntry> entries, boolean complete) {
    public DirectoryListing {
        if (verifier.length != 8) {
            throw new IllegalArgumentException("cookie verifier must have 8 bytes");
        }
        verifier = verifier.clone();
        entries = List.copyOf(entries);
    }

    @Override
    public byte[] verifier() {
        return verifier.clone();
    }
}
