package org.tcnfs.txn.ops;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_CREATE;

import java.util.Set;
import org.tcnfs.nfs4.ops.Names;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.xdr.CREATE4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectOperation;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.ObjectRef;
import org.tcnfs.txn.plan.OperationTable.Locks;
import org.tcnfs.txn.plan.Planning;

/**
 * CREATE (RFC 8881 section 18.4) of a directory, symbolic link or special file: WRITE locks on the current
 * directory and the new name, one {@link Mutation.Creation}; undone by removing what it made ({@link
 * UndoStep.RemoveCreated}) and setting the directory's times back ({@link UndoStep.RestoreAttributes}). The
 * new object becomes the current file handle.
 */
public final class CreateOperation implements ObjectOperation {

    @Override
    public int opcode() {
        return OP_CREATE;
    }

    @Override
    public Locks locks() {
        return Locks.CURRENT_DIRECTORY_AND_NAME;
    }

    @Override
    public Set<Class<? extends Mutation>> mutations() {
        return Set.of(Mutation.Creation.class);
    }

    @Override
    public Set<Class<? extends UndoStep>> undoSteps() {
        return Set.of(UndoStep.RemoveCreated.class, UndoStep.RestoreAttributes.class);
    }

    @Override
    public void plan(Planning planning, int i, nfs_argop4 op) {
        CREATE4args args = planning.args(i, op, CREATE4args.class);
        ObjectPath dir = args == null ? null : planning.currentDirectoryInExport(i, op);
        if (dir == null) {
            return;
        }
        FileType type = createType(args.objtype == null ? -1 : args.objtype.type);
        if (type == null) {
            planning.expectFailure(i, op, "CREATE cannot make type "
                    + (args.objtype == null ? "none" : args.objtype.type) + " (NFS4ERR_BADTYPE)");
            return;
        }
        String name = planning.checkName(i, op, args.objname);
        if (name == null) {
            return;
        }
        if (type == FileType.SYMLINK) {
            try {
                Names.checkLinkTarget(args.objtype.linkdata);
            } catch (NfsException e) {
                planning.expectFailure(i, op, "bad link target: " + e.getMessage() + " (" + e.status() + ")");
                return;
            }
        }
        if (AttributeArgs.hasSize(args.createattrs)) {
            planning.expectFailure(i, op, "CREATE cannot set a size (NFS4ERR_INVAL)");
            return;
        }
        ObjectPath path = planning.child(dir, name);
        planning.writeKey(dir);
        planning.writeKey(path);
        ObjectRef created = ObjectRef.created(path);
        planning.mutation(new Mutation.Creation(i, created, type, Mutation.Creation.How.CREATE));
        planning.created(path);
        planning.currentIs(created);
    }

    private static FileType createType(int nfsType) {
        return switch (nfsType) {
            case nfs_ftype4.NF4DIR -> FileType.DIRECTORY;
            case nfs_ftype4.NF4LNK -> FileType.SYMLINK;
            case nfs_ftype4.NF4BLK -> FileType.BLOCK;
            case nfs_ftype4.NF4CHR -> FileType.CHAR;
            case nfs_ftype4.NF4SOCK -> FileType.SOCKET;
            case nfs_ftype4.NF4FIFO -> FileType.FIFO;
            default -> null;
        };
    }
}
