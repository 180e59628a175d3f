package org.tcnfs.txn.handles;

import java.util.List;
import java.util.Objects;
import org.tcnfs.nfs4.vfs.FileType;

/**
 * What the handle table knows of one object.
 *
 * @param handle its handle
 * @param exportId the export it belongs to
 * @param type its kind
 * @param dev the local device number ({@code st_dev}) when it was registered; informational, since device
 *     numbers may change across reboots (the identity within an export is {@code ino})
 * @param ino the local inode number ({@code st_ino})
 * @param generation tells this object from a later one that reuses its inode number: its birth time in
 *     nanoseconds where the file system keeps one, 0 where unknown (then only {@code ino} identifies it)
 * @param links its names; empty exactly for the root of an export, a single one for a directory, one per
 *     known hard link for other objects
 */
public record Node(Nfh handle, String exportId, FileType type, long dev, long ino, long generation,
        List<Link> links) {

    public Node {
        Objects.requireNonNull(handle, "handle");
        HandleTable.checkExportId(exportId);
        Objects.requireNonNull(type, "type");
        links = List.copyOf(links);
        if (type == FileType.DIRECTORY && links.size() > 1) {
            throw new IllegalArgumentException("a directory has one name, not " + links.size());
        }
    }

    /** Whether this is the root of its export (it has no name). */
    public boolean isRoot() {
        return links.isEmpty();
    }

    /** Whether this is a directory. */
    public boolean isDirectory() {
        return type == FileType.DIRECTORY;
    }

    Node withLinks(List<Link> newLinks) {
        return new Node(handle, exportId, type, dev, ino, generation, newLinks);
    }

    Node withInode(long newDev, long newIno, long newGeneration) {
        return new Node(handle, exportId, type, newDev, newIno, newGeneration, links);
    }

    /**
     * Whether a local object with inode {@code otherIno} and generation {@code otherGeneration} (0 if
     * unknown) can be this node's object.
     */
    public boolean isSameObject(long otherIno, long otherGeneration) {
        return ino == otherIno && (generation == 0 || otherGeneration == 0 || generation == otherGeneration);
    }
}
