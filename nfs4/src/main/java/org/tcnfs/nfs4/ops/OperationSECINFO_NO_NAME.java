package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.status.BadXdrException;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.SECINFO_NO_NAME4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.secinfo_style4;

/**
 * SECINFO_NO_NAME (RFC 8881 18.45): the security flavors of the current object
 * ({@code SECINFO_STYLE4_CURRENT_FH}) or of its parent ({@code SECINFO_STYLE4_PARENT}: the current file
 * handle must be a directory, NFS4ERR_NOENT at the root). AUTH_SYS only. A successful call consumes the
 * current file handle (RFC 8881 2.6.3.1.1.8). A style the RFC does not define is NFS4ERR_BADXDR.
 */
public final class OperationSECINFO_NO_NAME implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        int style = ((SECINFO_NO_NAME4args) op.args).value;
        VirtualFileSystem fs = context.fs();
        Inode current = context.currentInode();
        switch (style) {
            case secinfo_style4.SECINFO_STYLE4_CURRENT_FH -> fs.getattr(current);
            case secinfo_style4.SECINFO_STYLE4_PARENT -> {
                Directories.requireDirectory(fs, current);
                fs.parentOf(current);
            }
            default -> throw new BadXdrException("unknown secinfo_style4 " + style);
        }
        result.body = OperationSECINFO.authSysOnly();
        context.clearCurrentInode();
    }
}
