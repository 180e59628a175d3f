package org.tcnfs.nfs4.vfs;

/**
 * Capacity of the file system that holds an object.
 *
 * @param totalBytes size of the file system
 * @param freeBytes bytes free
 * @param availableBytes bytes free for an unprivileged user
 * @param totalFiles number of file slots (inodes)
 * @param freeFiles free file slots
 */
public record FsStat(long totalBytes, long freeBytes, long availableBytes, long totalFiles, long freeFiles) {
}
