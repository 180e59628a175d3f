package org.tcnfs.nfs4.vfs;

/**
 * Identifies the file system an object is in ({@code fsid4}); objects of different exports differ.
 *
 * @param major the major part
 * @param minor the minor part
 */
public record FileSystemId(long major, long minor) {
}
