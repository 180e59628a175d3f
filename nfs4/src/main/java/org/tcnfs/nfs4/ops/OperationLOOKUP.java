package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NotDirException;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * LOOKUP (RFC 8881 18.15): the object called {@code objname} in the current directory becomes current.
 * The current file handle must be a directory (NFS4ERR_NOTDIR, NFS4ERR_SYMLINK for a symbolic link); the
 * name follows {@link Names}; a missing name is NFS4ERR_NOENT.
 */
public final class OperationLOOKUP implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        LOOKUP4args args = (LOOKUP4args) op.args;
        VirtualFileSystem fs = context.fs();
        Inode dir = context.currentInode();
        String name;
        try {
            name = Names.checkComponent(args.objname);
        } catch (NfsException e) {
            Directories.requireDirectory(context.getattr(dir)); // NOTDIR or SYMLINK come first
            throw e;
        }
        VirtualFileSystem.Found found;
        try {
            // the file system resolves the directory once, for its type, the search permission and the name
            found = fs.lookupWithAttributes(dir, name);
        } catch (NotDirException e) {
            Directories.requireDirectory(context.getattr(dir)); // SYMLINK for a symbolic link
            throw e;
        }
        context.setCurrentInode(found.inode());
        if (found.attributes() != null) {
            context.keepAttributes(found.inode(), found.attributes()); // for a GETATTR that follows
        }
    }
}
