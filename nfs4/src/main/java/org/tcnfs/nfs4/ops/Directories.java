package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.status.NotDirException;
import org.tcnfs.nfs4.status.SymlinkException;
import org.tcnfs.nfs4.status.XDevException;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;

/** Checks and steps shared by the operations that work on a directory. */
final class Directories {
    private static final Logger LOG = LoggerFactory.getLogger(Directories.class);

    private Directories() {
    }

    /**
     * The attributes of {@code inode}, which must be a directory.
     *
     * @throws SymlinkException if it is a symbolic link (RFC 8881 15.1.2.9: the operation does not accept
     *     one as its directory)
     * @throws NotDirException if it is anything else but a directory
     */
    static Stat requireDirectory(VirtualFileSystem fs, Inode inode) throws IOException {
        return requireDirectory(fs.getattr(inode));
    }

    /** {@code stat}, which must be a directory's; as {@link #requireDirectory(VirtualFileSystem, Inode)}. */
    static Stat requireDirectory(Stat stat) throws IOException {
        if (stat.type() == FileType.SYMLINK) {
            throw new SymlinkException("the current file handle is a symbolic link");
        }
        if (stat.type() != FileType.DIRECTORY) {
            throw new NotDirException("not a directory: " + stat.type());
        }
        return stat;
    }

    /**
     * Refuses to join two objects of different file systems (exports) in one name space operation.
     *
     * @throws XDevException if {@code a} and {@code b} lie in different file systems
     */
    static void requireSameFileSystem(VirtualFileSystem fs, Inode a, Inode b) throws IOException {
        if (!fs.fileSystemId(a).equals(fs.fileSystemId(b))) {
            throw new XDevException("objects lie in different file systems");
        }
    }

    /** The directory's {@code change} attribute now. */
    static long change(VirtualFileSystem fs, Inode dir) throws IOException {
        return fs.getattr(dir).change();
    }

    /**
     * Applies the create attributes left after creation ({@code rest}, if any) to {@code created}, which
     * was just made as {@code name} in {@code dir}. If that fails, removes the new object again and rethrows
     * the failure (a failed removal is logged and added to it as suppressed).
     *
     * @param operation the operation's name, for the log
     */
    static void setattrOrRemove(VirtualFileSystem fs, Inode dir, String name, Inode created, SetAttributes rest,
            String operation) throws IOException {
        if (rest.isEmpty()) {
            return;
        }
        try {
            fs.setattr(created, rest);
        } catch (IOException e) {
            try {
                fs.remove(dir, name);
            } catch (IOException removeFailure) {
                LOG.error("{} of {} could not set its attributes nor remove it again", operation, name,
                        removeFailure);
                e.addSuppressed(removeFailure);
            }
            throw e;
        }
    }
}
