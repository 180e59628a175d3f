package org.tcnfs.txn.ops;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_RENAME;

import java.io.IOException;
import java.util.Set;
import org.tcnfs.nfs4.xdr.RENAME4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectOperation;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.ObjectRef;
import org.tcnfs.txn.plan.OperationTable.Locks;
import org.tcnfs.txn.plan.Planning;

/**
 * RENAME (RFC 8881 section 18.26) of a name in the saved directory to a name in the current one: WRITE locks on
 * both directories, both names and the objects they name, one {@link Mutation.Rename}; undone by renaming back
 * and moving a replaced target back from the backup directory ({@link UndoStep.RenameBack}, {@link
 * UndoStep.MoveBack}) and setting the directories' and the target's times back ({@link
 * UndoStep.RestoreAttributes}). The current and saved file handles move with the renamed object.
 */
public final class RenameOperation implements ObjectOperation {

    @Override
    public int opcode() {
        return OP_RENAME;
    }

    @Override
    public Locks locks() {
        return Locks.BOTH_DIRECTORIES_AND_NAMES;
    }

    @Override
    public Set<Class<? extends Mutation>> mutations() {
        return Set.of(Mutation.Rename.class);
    }

    @Override
    public Set<Class<? extends UndoStep>> undoSteps() {
        return Set.of(UndoStep.RenameBack.class, UndoStep.MoveBack.class, UndoStep.RestoreAttributes.class);
    }

    @Override
    public void plan(Planning planning, int i, nfs_argop4 op) throws IOException {
        RENAME4args args = planning.args(i, op, RENAME4args.class);
        if (args == null) {
            return;
        }
        ObjectPath fromDir = planning.directoryInExport(i, op, planning.saved(i, op));
        ObjectPath toDir = fromDir == null ? null : planning.currentDirectoryInExport(i, op);
        String oldName = toDir == null ? null : planning.checkName(i, op, args.oldname);
        String newName = oldName == null ? null : planning.checkName(i, op, args.newname);
        if (newName == null || !planning.sameExport(i, op, fromDir, toDir)) {
            return;
        }
        ObjectPath from = planning.child(fromDir, oldName);
        ObjectPath to = planning.child(toDir, newName);
        ObjectRef source = planning.atPath(from);
        ObjectRef target = planning.atPath(to);
        planning.writeKey(fromDir);
        planning.writeKey(toDir);
        planning.writeKey(from);
        planning.writeKey(to);
        planning.writeObject(source, null);
        planning.writeObject(target, null);
        planning.mutation(new Mutation.Rename(i, source, target));
        if (!from.equals(to)) {
            planning.renamed(from, to);
        }
    }
}
