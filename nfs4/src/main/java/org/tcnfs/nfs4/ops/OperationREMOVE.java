package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.vfs.CompoundScope;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.REMOVE4args;
import org.tcnfs.nfs4.xdr.REMOVE4resok;
import org.tcnfs.nfs4.xdr.change_info4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * REMOVE (RFC 8881 18.25): removes the name {@code target} from the current directory, whatever it names
 * (a directory must be empty: NFS4ERR_NOTEMPTY). Missing name: NFS4ERR_NOENT. {@code cinfo} is the
 * directory's change attribute before and after, not atomic.
 */
public final class OperationREMOVE implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        REMOVE4args args = (REMOVE4args) op.args;
        VirtualFileSystem fs = context.fs();
        Inode dir = context.currentInode();
        // nothing changes until the removal itself: its reads of the directory share one stretch (the file system
        // resolves the directory once for the change attribute before and the removal), the one before this
        // operation when the engine offers it (a plain compound, or a transaction prepared up front: the directory its
        // LOOKUP chain found)
        CompoundScope.continueOffered();
        // one look at the directory for its type and its change attribute before
        long before = Directories.requireDirectory(context.getattr(dir)).change();
        String name = Names.checkComponent(args.target);
        if (OpenUnlinked.keepIfOpen(context, fs, dir, name)) {
            CompoundScope.beginChange(); // keeping the open victim changed something: read again
            CompoundScope.endChange();
        }
        long after;
        try {
            // the directory changed: the file system ends the stretch (what it read is stale) and reads it again
            after = fs.removeThenChange(dir, name);
        } finally {
            // the file system ended the stretch, or suspended it having dropped what the removal changed
            if (CompoundScope.stretch() != 0) {
                CompoundScope.beginChange();
            }
            context.forgetAttributes(); // and what getattr kept
        }
        result.body = new REMOVE4resok(new change_info4(false, before, after));
    }
}
