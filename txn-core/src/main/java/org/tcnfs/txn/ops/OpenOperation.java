package org.tcnfs.txn.ops;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;

import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import org.tcnfs.nfs4.state.OwnerSequence;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_claim_type4;
import org.tcnfs.nfs4.xdr.opentype4;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.ObjectOperation;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.ObjectRef;
import org.tcnfs.txn.plan.OperationTable.Locks;
import org.tcnfs.txn.plan.OperationTable.StateOnRollback;
import org.tcnfs.txn.plan.Planning;
import org.tcnfs.txn.plan.Register;

/**
 * OPEN (RFC 8881 section 18.16): READ locks on the directory and the file; when it may create, a WRITE lock on
 * the name and a {@link Mutation.Creation}, and a WRITE lock on the directory unless it is UNCHECKED4 of a name
 * that exists (then it changes no directory entry, and the name's existence is an assumption of the plan); when it truncates (UNCHECKED4 with size 0), a WRITE lock on the file
 * and a {@link Mutation.SizeChange}. Undone by removing what it created ({@link UndoStep.RemoveCreated}), by
 * putting the cut data, size and times back ({@link UndoStep.RestoreRanges}, {@link UndoStep.RestoreSize},
 * {@link UndoStep.RestoreAttributes}); the open state it creates or upgrades is put back from the compound's
 * state journal ({@link StateOnRollback#RESTORED}). The opened file becomes the current file handle. An NFSv4.0
 * OPEN that retransmits its owner's last request changes nothing and makes the file opened then current
 * ({@link Planning#retransmitted}), whatever its arguments name now.
 */
public final class OpenOperation implements ObjectOperation {

    @Override
    public int opcode() {
        return OP_OPEN;
    }

    @Override
    public Locks locks() {
        return Locks.OPEN;
    }

    @Override
    public Set<Class<? extends Mutation>> mutations() {
        return Set.of(Mutation.Creation.class, Mutation.SizeChange.class);
    }

    @Override
    public Set<Class<? extends UndoStep>> undoSteps() {
        return Set.of(UndoStep.RemoveCreated.class, UndoStep.RestoreRanges.class, UndoStep.RestoreSize.class,
                UndoStep.RestoreAttributes.class);
    }

    @Override
    public StateOnRollback state() {
        return StateOnRollback.RESTORED;
    }

    @Override
    public void plan(Planning planning, int i, nfs_argop4 op) throws IOException {
        OPEN4args args = planning.args(i, op, OPEN4args.class);
        Register base = args == null ? null : planning.current(i, op);
        if (base == null) {
            return;
        }
        Optional<OwnerSequence.Retransmission> again = planning.retransmission(i, op, args);
        if (again.isPresent()) {
            planning.retransmitted(i, op, again.get());
            return;
        }
        open_claim4 claim = args.claim;
        int claimType = claim == null ? -1 : claim.claim;
        createhow4 how = args.openhow != null && args.openhow.opentype == opentype4.OPEN4_CREATE
                ? args.openhow.how : null;
        if (args.openhow != null && args.openhow.opentype == opentype4.OPEN4_CREATE && how == null) {
            planning.expectFailure(i, op, "OPEN4_CREATE without createhow4 (NFS4ERR_BADXDR)");
            return;
        }
        switch (claimType) {
            case open_claim_type4.CLAIM_NULL -> openByName(planning, i, op, base, claim.file, how);
            case open_claim_type4.CLAIM_DELEGATE_CUR -> openByName(planning, i, op, base,
                    claim.delegate_cur_info == null ? null : claim.delegate_cur_info.file, null);
            case open_claim_type4.CLAIM_DELEGATE_PREV -> openByName(planning, i, op, base, claim.file_delegate_prev,
                    null);
            case open_claim_type4.CLAIM_FH -> openCurrent(planning, i, op, base, how);
            case open_claim_type4.CLAIM_DELEG_CUR_FH, open_claim_type4.CLAIM_DELEG_PREV_FH,
                    open_claim_type4.CLAIM_PREVIOUS -> openCurrent(planning, i, op, base, null);
            default -> planning.unknown(i, op, "OPEN with claim type " + claimType + " is not known to the planner");
        }
    }

    /** OPEN of {@code rawName} in {@code base}, creating it as {@code how} says ({@code null}: no create). */
    private static void openByName(Planning planning, int i, nfs_argop4 op, Register base, String rawName,
            createhow4 how) throws IOException {
        ObjectPath dir = planning.directoryInExport(i, op, base);
        String name = dir == null ? null : planning.checkName(i, op, rawName);
        if (name == null) {
            return;
        }
        ObjectPath path = planning.child(dir, name);
        if (how == null) {
            planning.readKey(dir);
            planning.readKey(path);
            planning.currentByName(path);
            return;
        }
        Mutation.Creation.How mode = openCreateMode(how.mode);
        if (mode == null) {
            planning.expectFailure(i, op, "unknown create mode " + how.mode + " (NFS4ERR_BADXDR)");
            return;
        }
        long truncateTo = mode == Mutation.Creation.How.OPEN_UNCHECKED ? AttributeArgs.sizeOf(how.createattrs)
                : AttributeArgs.NO_SIZE;
        if (truncateTo == AttributeArgs.BAD_SIZE) {
            planning.expectFailure(i, op, "create attributes with a size that does not decode (NFS4ERR_INVAL)");
            return;
        }
        ObjectRef file = mode == Mutation.Creation.How.OPEN_GUARDED ? ObjectRef.created(path)
                : planning.atPath(path);
        // UNCHECKED4 of a name that exists changes no directory entry: a READ key on the directory is enough
        // (the name's existence is an assumption of the plan, checked again under the locks), so compounds
        // that open existing files of one directory do not queue behind each other's directory lock.
        if (mode == Mutation.Creation.How.OPEN_UNCHECKED && planning.existedBefore(file)) {
            planning.readKey(dir);
        } else {
            planning.writeKey(dir);
        }
        planning.writeKey(path);
        planning.mutation(new Mutation.Creation(i, file, FileType.REGULAR, mode));
        if (truncateTo == 0) {
            planning.mutation(new Mutation.SizeChange(i, file, 0, Mutation.SizeChange.Cause.OPEN_TRUNCATE));
            planning.writeObject(file, null);
        }
        if (mode == Mutation.Creation.How.OPEN_GUARDED) {
            planning.created(path);
        }
        planning.currentIs(file);
    }

    /** OPEN of the current file (CLAIM_FH and the claims that name no file). */
    private static void openCurrent(Planning planning, int i, nfs_argop4 op, Register file, createhow4 how)
            throws IOException {
        ObjectPath path = file.path();
        if (path == null) {
            planning.expectFailure(i, op, "OPEN of a pseudo directory (NFS4ERR_ISDIR)");
            return;
        }
        long truncateTo = how != null && how.mode == createmode4.UNCHECKED4 ? AttributeArgs.sizeOf(how.createattrs)
                : AttributeArgs.NO_SIZE;
        if (truncateTo == AttributeArgs.BAD_SIZE) {
            planning.expectFailure(i, op, "create attributes with a size that does not decode (NFS4ERR_INVAL)");
            return;
        }
        if (truncateTo != 0) {
            planning.readKey(path);
            return;
        }
        ObjectRef ref = planning.ref(file);
        planning.writeKey(path);
        planning.writeObject(ref, file.handle());
        planning.mutation(new Mutation.SizeChange(i, ref, 0, Mutation.SizeChange.Cause.OPEN_TRUNCATE));
    }

    private static Mutation.Creation.How openCreateMode(int mode) {
        return switch (mode) {
            case createmode4.UNCHECKED4 -> Mutation.Creation.How.OPEN_UNCHECKED;
            case createmode4.GUARDED4 -> Mutation.Creation.How.OPEN_GUARDED;
            case createmode4.EXCLUSIVE4, createmode4.EXCLUSIVE4_1 -> Mutation.Creation.How.OPEN_EXCLUSIVE;
            default -> null;
        };
    }
}
