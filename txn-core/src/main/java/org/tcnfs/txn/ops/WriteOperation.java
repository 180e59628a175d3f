package org.tcnfs.txn.ops;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_WRITE;

import java.io.IOException;
import java.util.Set;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectOperation;
import org.tcnfs.txn.plan.ObjectRef;
import org.tcnfs.txn.plan.OperationTable.Locks;
import org.tcnfs.txn.plan.Planning;
import org.tcnfs.txn.plan.Register;

/**
 * WRITE (RFC 8881 section 18.32): a WRITE lock on the current file, one {@link Mutation.Write} of its range;
 * undone by putting the overwritten ranges back and the old size and times ({@link UndoStep.RestoreRanges} or
 * {@link UndoStep.RestoreSize}, {@link UndoStep.RestoreAttributes}). A WRITE of no bytes only reads.
 */
public final class WriteOperation implements ObjectOperation {

    @Override
    public int opcode() {
        return OP_WRITE;
    }

    @Override
    public Locks locks() {
        return Locks.CURRENT_WRITE;
    }

    @Override
    public Set<Class<? extends Mutation>> mutations() {
        return Set.of(Mutation.Write.class);
    }

    @Override
    public Set<Class<? extends UndoStep>> undoSteps() {
        return Set.of(UndoStep.RestoreRanges.class, UndoStep.RestoreSize.class, UndoStep.RestoreAttributes.class);
    }

    @Override
    public void plan(Planning planning, int i, nfs_argop4 op) throws IOException {
        WRITE4args args = planning.args(i, op, WRITE4args.class);
        Register file = args == null ? null : planning.current(i, op);
        if (file == null) {
            return;
        }
        long offset = args.offset;
        long length = args.data == null ? 0 : args.data.remaining();
        if (offset < 0 || offset > Long.MAX_VALUE - length) {
            planning.expectFailure(i, op, "write ends beyond maxfilesize (NFS4ERR_FBIG)");
            return;
        }
        if (file.path() == null) {
            planning.expectFailure(i, op, "WRITE to a pseudo directory (NFS4ERR_ISDIR)");
            return;
        }
        if (length == 0) {
            planning.readKey(file);
            return;
        }
        ObjectRef ref = planning.ref(file);
        planning.writeKey(file.path());
        planning.writeObject(ref, file.handle());
        planning.mutation(new Mutation.Write(i, ref, offset, length));
    }
}
