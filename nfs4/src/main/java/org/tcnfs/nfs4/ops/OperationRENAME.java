package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.RENAME4args;
import org.tcnfs.nfs4.xdr.RENAME4resok;
import org.tcnfs.nfs4.xdr.change_info4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * RENAME (RFC 8881 18.26): {@code oldname} in the saved directory becomes {@code newname} in the current
 * directory.
 *
 * <p>Both file handles must be directories (NFS4ERR_NOTDIR, NFS4ERR_SYMLINK; none saved:
 * NFS4ERR_NOFILEHANDLE) of one file system (NFS4ERR_XDEV); both names follow {@link Names}. The file
 * system replaces a compatible target, refuses an incompatible one or a non-empty directory
 * (NFS4ERR_EXIST) and a directory moved beneath itself (NFS4ERR_INVAL); renaming an object onto itself or
 * onto another link to it succeeds and changes nothing. The change information of both directories is
 * returned, not atomic. The current and saved file handles stay as they are.
 */
public final class OperationRENAME implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        RENAME4args args = (RENAME4args) op.args;
        VirtualFileSystem fs = context.fs();
        Inode toDir = context.currentInode();
        Inode fromDir = context.savedInode();
        Directories.requireDirectory(fs, fromDir);
        Directories.requireDirectory(fs, toDir);
        String oldName = Names.checkComponent(args.oldname);
        String newName = Names.checkComponent(args.newname);
        Directories.requireSameFileSystem(fs, fromDir, toDir);

        long sourceBefore = Directories.change(fs, fromDir);
        long targetBefore = Directories.change(fs, toDir);
        OpenUnlinked.keepIfOpen(context, fs, toDir, newName);
        fs.rename(fromDir, oldName, toDir, newName);
        long sourceAfter = Directories.change(fs, fromDir);
        long targetAfter = Directories.change(fs, toDir);
        result.body = new RENAME4resok(new change_info4(false, sourceBefore, sourceAfter),
                new change_info4(false, targetBefore, targetAfter));
    }
}
