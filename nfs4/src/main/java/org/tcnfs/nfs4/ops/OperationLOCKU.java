package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.ByteRange;
import org.tcnfs.nfs4.state.LockType;
import org.tcnfs.nfs4.state.NfsClient;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.LOCKU4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * LOCKU (RFC 8881 18.12): releases a range of the locks held under a lock stateid on the current file,
 * splitting a lock that extends past the range; releasing bytes not locked is no error. The lock type must
 * be a valid one but does not matter. The lock stateid's new seqid is the result and the current stateid.
 */
public final class OperationLOCKU implements NfsOperation {

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        LOCKU4args args = (LOCKU4args) op.args;
        Inode file = context.currentInode();
        NfsClient client = OpenStateTable.clientOf(context);
        LockType.of(args.locktype);
        ByteRange range = ByteRange.of(args.offset, args.length);
        StateId lock = OpenStateTable.resolve(context, StateId.of(args.lock_stateid));
        StateId unlocked = context.server().state().opens().unlock(client, lock, file, range);
        context.setCurrentStateId(unlocked);
        result.body = unlocked.toWire();
    }
}
