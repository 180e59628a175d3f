package org.tcnfs.txn.ops;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SETATTR;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.tcnfs.nfs4.xdr.SETATTR4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectOperation;
import org.tcnfs.txn.plan.ObjectRef;
import org.tcnfs.txn.plan.OperationTable.Locks;
import org.tcnfs.txn.plan.Planning;
import org.tcnfs.txn.plan.Register;

/**
 * SETATTR (RFC 8881 section 18.30): a WRITE lock on the current object, one {@link Mutation.AttributeChange}
 * and, if it sets the size, a {@link Mutation.SizeChange}; undone by setting the old attributes back ({@link
 * UndoStep.RestoreAttributes}) and, for the size, the cut ranges and the old size ({@link
 * UndoStep.RestoreRanges}, {@link UndoStep.RestoreSize}). A SETATTR of no attributes only reads.
 */
public final class SetattrOperation implements ObjectOperation {

    @Override
    public int opcode() {
        return OP_SETATTR;
    }

    @Override
    public Locks locks() {
        return Locks.CURRENT_WRITE;
    }

    @Override
    public Set<Class<? extends Mutation>> mutations() {
        return Set.of(Mutation.AttributeChange.class, Mutation.SizeChange.class);
    }

    @Override
    public Set<Class<? extends UndoStep>> undoSteps() {
        return Set.of(UndoStep.RestoreAttributes.class, UndoStep.RestoreRanges.class, UndoStep.RestoreSize.class);
    }

    @Override
    public void plan(Planning planning, int i, nfs_argop4 op) throws IOException {
        SETATTR4args args = planning.args(i, op, SETATTR4args.class);
        Register object = args == null ? null : planning.current(i, op);
        if (object == null) {
            return;
        }
        if (object.path() == null) {
            planning.expectFailure(i, op, "SETATTR of a pseudo directory (NFS4ERR_ROFS)");
            return;
        }
        int[] attributes = AttributeArgs.numbers(args.obj_attributes);
        if (attributes.length == 0) {
            planning.readKey(object);
            return;
        }
        long size = AttributeArgs.sizeOf(args.obj_attributes);
        if (size == AttributeArgs.BAD_SIZE) {
            planning.expectFailure(i, op,
                    "a size that does not decode (NFS4ERR_INVAL, NFS4ERR_BADXDR or NFS4ERR_FBIG)");
            return;
        }
        ObjectRef ref = planning.ref(object);
        planning.writeKey(object.path());
        planning.writeObject(ref, object.handle());
        List<Integer> numbers = new ArrayList<>(attributes.length);
        for (int n : attributes) {
            numbers.add(n);
        }
        planning.mutation(new Mutation.AttributeChange(i, ref, numbers));
        if (size != AttributeArgs.NO_SIZE) {
            planning.mutation(new Mutation.SizeChange(i, ref, size, Mutation.SizeChange.Cause.SETATTR));
        }
    }
}
