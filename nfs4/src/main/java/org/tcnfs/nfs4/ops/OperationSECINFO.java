package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.SECINFO4args;
import org.tcnfs.nfs4.xdr.SECINFO4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.secinfo4;

/**
 * SECINFO (RFC 8881 18.29): the security flavors for the object called {@code name} in the current
 * directory. This server offers AUTH_SYS only, on every export.
 *
 * <p>The name must exist (NFS4ERR_NOENT) and follow {@link Names}. In NFSv4.1 and later a successful
 * SECINFO consumes the current file handle (RFC 8881 2.6.3.1.1.8): the next operation that needs one gets
 * NFS4ERR_NOFILEHANDLE. NFSv4.0 (RFC 7530 16.31) keeps it.
 */
public final class OperationSECINFO implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        SECINFO4args args = (SECINFO4args) op.args;
        VirtualFileSystem fs = context.fs();
        Inode dir = context.currentInode();
        Directories.requireDirectory(fs, dir);
        String name = Names.checkComponent(args.name);
        fs.lookup(dir, name);
        result.body = authSysOnly();
        if (context.minorVersion() >= 1) {
            context.clearCurrentInode();
        }
    }

    /** The flavor list of every object of this server. */
    static SECINFO4resok authSysOnly() {
        return new SECINFO4resok(new secinfo4[] {new secinfo4(secinfo4.AUTH_SYS)});
    }
}
