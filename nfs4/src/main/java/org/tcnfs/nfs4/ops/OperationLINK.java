package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.status.IsDirException;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.LINK4args;
import org.tcnfs.nfs4.xdr.LINK4resok;
import org.tcnfs.nfs4.xdr.change_info4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * LINK (RFC 8881 18.9): gives the object of the saved file handle the additional name {@code newname} in
 * the current directory.
 *
 * <p>The saved object must not be a directory (NFS4ERR_ISDIR; none saved: NFS4ERR_NOFILEHANDLE), the
 * current one must be a directory (NFS4ERR_NOTDIR, NFS4ERR_SYMLINK) of the same file system
 * (NFS4ERR_XDEV); the name follows {@link Names} and must be free (NFS4ERR_EXIST). {@code cinfo} is the
 * directory's change attribute before and after, not atomic. The current file handle stays the directory.
 */
public final class OperationLINK implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        LINK4args args = (LINK4args) op.args;
        VirtualFileSystem fs = context.fs();
        Inode dir = context.currentInode();
        Inode target = context.savedInode();
        Directories.requireDirectory(fs, dir);
        if (fs.getattr(target).type() == FileType.DIRECTORY) {
            throw new IsDirException("cannot link a directory");
        }
        String name = Names.checkComponent(args.newname);
        Directories.requireSameFileSystem(fs, target, dir);
        long before = Directories.change(fs, dir);
        fs.link(target, dir, name);
        long after = Directories.change(fs, dir);
        result.body = new LINK4resok(new change_info4(false, before, after));
    }
}
