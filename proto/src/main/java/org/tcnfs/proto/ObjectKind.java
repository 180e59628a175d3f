package org.tcnfs.proto;

/** The kinds of file system objects a record names ({@code nfs_ftype4} without named attributes). */
public enum ObjectKind {
    /** A regular file. */
    REGULAR,
    /** A directory. */
    DIRECTORY,
    /** A symbolic link. */
    SYMLINK,
    /** A block device. */
    BLOCK,
    /** A character device. */
    CHAR,
    /** A socket. */
    SOCKET,
    /** A named pipe. */
    FIFO
}
