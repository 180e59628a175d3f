package org.tcnfs.txn.ops;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LINK;

import java.io.IOException;
import java.util.Set;
import org.tcnfs.nfs4.xdr.LINK4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectOperation;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.ObjectRef;
import org.tcnfs.txn.plan.OperationTable.Locks;
import org.tcnfs.txn.plan.Planning;
import org.tcnfs.txn.plan.Register;

/**
 * LINK (RFC 8881 section 18.9) of the saved object under a new name in the current directory: WRITE locks on
 * the linked object (also by handle), the directory and the new name, one {@link Mutation.HardLink}; undone by
 * removing the new name if it still names the linked object ({@link UndoStep.UnlinkLink}) and setting the
 * directory's times back ({@link UndoStep.RestoreAttributes}).
 */
public final class LinkOperation implements ObjectOperation {

    @Override
    public int opcode() {
        return OP_LINK;
    }

    @Override
    public Locks locks() {
        return Locks.LINK;
    }

    @Override
    public Set<Class<? extends Mutation>> mutations() {
        return Set.of(Mutation.HardLink.class);
    }

    @Override
    public Set<Class<? extends UndoStep>> undoSteps() {
        return Set.of(UndoStep.UnlinkLink.class, UndoStep.RestoreAttributes.class);
    }

    @Override
    public void plan(Planning planning, int i, nfs_argop4 op) throws IOException {
        LINK4args args = planning.args(i, op, LINK4args.class);
        Register source = args == null ? null : planning.saved(i, op);
        ObjectPath dir = source == null ? null : planning.currentDirectoryInExport(i, op);
        if (dir == null) {
            return;
        }
        if (source.path() == null) {
            planning.expectFailure(i, op, "LINK of a pseudo directory (NFS4ERR_ISDIR)");
            return;
        }
        String name = planning.checkName(i, op, args.newname);
        if (name == null || !planning.sameExport(i, op, source.path(), dir)) {
            return;
        }
        ObjectPath path = planning.child(dir, name);
        ObjectRef linked = planning.ref(source);
        planning.writeKey(source.path());
        planning.writeKey(dir);
        planning.writeKey(path);
        planning.writeObject(linked, source.handle());
        planning.mutation(new Mutation.HardLink(i, linked, ObjectRef.created(path)));
        planning.aliased(path, linked.origin());
    }
}
