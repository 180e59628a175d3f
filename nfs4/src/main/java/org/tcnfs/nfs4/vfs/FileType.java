package org.tcnfs.nfs4.vfs;

/** The kinds of objects a file system holds ({@code nfs_ftype4} without the named-attribute kinds). */
public enum FileType {
    REGULAR,
    DIRECTORY,
    SYMLINK,
    BLOCK,
    CHAR,
    SOCKET,
    FIFO
}
