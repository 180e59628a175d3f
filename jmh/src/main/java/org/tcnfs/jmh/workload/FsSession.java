package org.tcnfs.jmh.workload;

import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;

/**
 * One client's view of a target: each call is one vectorized request (for NFS targets one call of the vectorized
 * client, that is as few COMPOUNDs as the session allows, exactly one in a transaction). Paths are relative to the
 * target's root, with '/' separators.
 */
interface FsSession extends AutoCloseable {
    /** Creates or truncates each file and writes its data. */
    void write(List<FileData> files) throws IOException;

    /** Reads each file whole; returns the bytes read. */
    long read(List<String> paths) throws IOException;

    /** Reads each whole file into memory (cp -R's read side). */
    List<byte[]> readAll(List<String> paths) throws IOException;

    /** Creates the directories, in the order given (parents before children). */
    void mkdirs(List<String> dirs) throws IOException;

    /** Creates each symbolic link. */
    void symlinks(List<Link> links) throws IOException;

    /** The targets of the given symbolic links. */
    List<String> readlinks(List<String> paths) throws IOException;

    /** Everything beneath {@code dir}, recursively, with attributes. */
    List<Entry> listRecursive(String dir) throws IOException;

    /** Fetches the attributes of each path (ls -l's stat). */
    void getattrs(List<String> paths) throws IOException;

    /** Removes each file, symbolic link or empty directory, in the order given. */
    void remove(List<String> paths) throws IOException;

    /** COMPOUND RPCs this session's calls sent so far; empty for targets without compounds (the disk). */
    default OptionalLong compoundsSent() {
        return OptionalLong.empty();
    }

    @Override
    void close() throws IOException;

    /** A file to write. */
    record FileData(String path, byte[] data) {
    }

    /** A symbolic link at {@code path} pointing at {@code target}. */
    record Link(String path, String target) {
    }

    /** A listed entry. */
    record Entry(String path, Kind kind, long size) {
    }

    /** What a listed entry is. */
    enum Kind {
        FILE, DIRECTORY, SYMLINK, OTHER
    }
}
