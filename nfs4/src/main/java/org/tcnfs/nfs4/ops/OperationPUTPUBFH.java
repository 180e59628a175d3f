package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * PUTPUBFH (RFC 8881 18.20): the public file handle becomes current. This server's public file handle is
 * its root (the pseudo root), which RFC 8881 allows.
 */
public final class OperationPUTPUBFH implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        context.setCurrentInode(context.fs().getRootInode());
    }
}
