package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/** PUTROOTFH (RFC 8881 18.21): the root of the caller's name space (the pseudo root) becomes current. */
public final class OperationPUTROOTFH implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        context.setCurrentInode(context.fs().getRootInode());
    }
}
