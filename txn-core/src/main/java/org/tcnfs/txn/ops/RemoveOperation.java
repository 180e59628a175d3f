package org.tcnfs.txn.ops;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_REMOVE;

import java.io.IOException;
import java.util.Set;
import org.tcnfs.nfs4.xdr.REMOVE4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectOperation;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.ObjectRef;
import org.tcnfs.txn.plan.OperationTable.Locks;
import org.tcnfs.txn.plan.Planning;

/**
 * REMOVE (RFC 8881 section 18.25): WRITE locks on the current directory, the name and the object it names,
 * one {@link Mutation.Removal}; undone by moving the victim, kept in the backup directory, back ({@link
 * UndoStep.MoveBack}) and setting its and the directory's times back ({@link UndoStep.RestoreAttributes}).
 */
public final class RemoveOperation implements ObjectOperation {

    @Override
    public int opcode() {
        return OP_REMOVE;
    }

    @Override
    public Locks locks() {
        return Locks.CURRENT_DIRECTORY_AND_NAME;
    }

    @Override
    public Set<Class<? extends Mutation>> mutations() {
        return Set.of(Mutation.Removal.class);
    }

    @Override
    public Set<Class<? extends UndoStep>> undoSteps() {
        return Set.of(UndoStep.MoveBack.class, UndoStep.RestoreAttributes.class);
    }

    @Override
    public void plan(Planning planning, int i, nfs_argop4 op) throws IOException {
        REMOVE4args args = planning.args(i, op, REMOVE4args.class);
        ObjectPath dir = args == null ? null : planning.currentDirectoryInExport(i, op);
        String name = dir == null ? null : planning.checkName(i, op, args.target);
        if (name == null) {
            return;
        }
        ObjectPath path = planning.child(dir, name);
        ObjectRef victim = planning.atPath(path);
        planning.writeKey(dir);
        planning.writeKey(path);
        planning.writeObject(victim, null);
        planning.mutation(new Mutation.Removal(i, victim));
        planning.removed(path);
    }
}
