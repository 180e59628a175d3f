package org.tcnfs.txn;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_ACCESS;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LINK;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_REMOVE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_RESTOREFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SAVEFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SETATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_WRITE;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.tcnfs.nfs4.attr.Bitmaps;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.opentype4;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.proto.ObjectKind;
import org.tcnfs.proto.UndoStep;
import org.tcnfs.txn.plan.Mutation;
import org.tcnfs.txn.plan.TxnPlan;

/**
 * Which transactional compounds take the light path: no backups made durable and no recovery record, because
 * the compound's only change is one that POSIX makes atomic by itself (docs/durability.md, "The light path").
 * Such a compound still holds its plan's locks (isolation), still prepares its undo in memory (a hard link to a
 * victim, the old attributes, the cut bytes), fsyncs what it touched before its commit, and answers NFS4_OK only
 * after that commit. A kill -9 or a power cut before the reply leaves the one change done or not done, which is
 * all or nothing of the compound: every other operation of it only reads or moves file handles.
 *
 * <p>A compound qualifies when all of these hold ({@link #whyNot} names the first that does not):
 * <ol>
 *   <li>its plan is complete (the planner expects no operation to fail) and it runs as one compound, not as a
 *       part of a transaction that spans compounds;</li>
 *   <li>exactly one operation changes objects, and that change is one system call:
 *     <ul>
 *       <li>REMOVE of one name: unlink, or, of an empty directory, a rename into the transaction's backup
 *           directory that is the removal and keeps the directory for the undo (where the file system can:
 *           {@link #whyNotSteps});</li>
 *       <li>LINK;</li>
 *       <li>SETATTR of one group that one call sets: size (truncate), mode (chmod), owner and group (lchown),
 *           access and modification times (utimensat);</li>
 *       <li>OPEN that creates a regular file (any create mode; create attributes among mode and size 0), only
 *           where the file system creates a file with its final mode, owner and times (an exclusive create's
 *           verifier) before it gets its name ({@code VirtualFileSystem.createsAtomically}: O_TMPFILE, then
 *           linkat);</li>
 *     </ul>
 *     (CREATE of a directory, symbolic link or special file is two calls, the object then its mode: not light;
 *     nor WRITE, which the kernel may cut short at a page boundary when the process is killed; nor RENAME,
 *     atomic on disk, but its directory entry and its handle row become durable at different moments, and a cut
 *     between them would give the renamed object a new handle: PowerLossIT found it);</li>
 *   <li>the changing operation is the last that can fail for the client's arguments or the tree: after it come
 *       only GETFH, GETATTR, ACCESS, SAVEFH, and RESTOREFH of a handle an earlier SAVEFH saved. These fail only
 *       for faults of the server (EIO, a reply too large); then the compound rolls back as any transaction
 *       does, its record and backups made durable first (before the undo's first change), so that a crash in
 *       the middle of the undo is recovered as before.</li>
 * </ol>
 * Operations before the changing one may be anything that changes no object (PUTFH, LOOKUP, SEQUENCE, ...):
 * if one fails, nothing changed.
 *
 * <p>Stateless and thread-safe.
 */
final class LightPath {
    private static final int FATTR4_SIZE = 4;
    private static final int FATTR4_MODE = 33;
    private static final int FATTR4_OWNER = 36;
    private static final int FATTR4_OWNER_GROUP = 37;
    private static final int FATTR4_TIME_ACCESS_SET = 48;
    private static final int FATTR4_TIME_MODIFY_SET = 54;

    /**
     * The page a light WRITE stays within: the smallest page size of the platforms tcnfs runs on (x86-64, arm64 with
     * 4 KiB or larger pages; an aligned range within 4 KiB lies within one page, or one naturally aligned folio, of
     * any of them).
     */
    static final long PAGE = 4096;

    /** Attribute groups one system call sets (truncate, chmod, lchown, utimensat). */
    private static final List<Set<Integer>> ONE_CALL_GROUPS = List.of(Set.of(FATTR4_SIZE), Set.of(FATTR4_MODE),
            Set.of(FATTR4_OWNER, FATTR4_OWNER_GROUP), Set.of(FATTR4_TIME_ACCESS_SET, FATTR4_TIME_MODIFY_SET));

    /** Operations that, after a change that succeeded, fail only for faults of the server. */
    private static final Set<Integer> INFALLIBLE_AFTER = Set.of(OP_GETFH, OP_GETATTR, OP_ACCESS, OP_SAVEFH);

    private LightPath() {
    }

    /**
     * Why the compound must take the full path, or empty if it qualifies for the light path (by its arguments
     * and plan alone; {@link #whyNotSteps} checks the prepared undo).
     *
     * @param plan the compound's plan
     * @param args the compound
     * @param createsAtomically whether the export's file system creates a regular file with its final mode and
     *     owner in one step (asked only for an OPEN that creates)
     */
    static Optional<String> whyNot(TxnPlan plan, COMPOUND4args args, BooleanSupplier createsAtomically) {
        if (!plan.isPlannable() || plan.expectedFailure().isPresent()) {
            return Optional.of("the plan is not complete");
        }
        List<Mutation> mutations = plan.mutations();
        if (mutations.isEmpty()) {
            return Optional.of("changes nothing");
        }
        int index = mutations.get(0).opIndex();
        for (Mutation m : mutations) {
            if (m.opIndex() != index) {
                return Optional.of("more than one operation changes objects");
            }
        }
        nfs_argop4[] ops = args.argarray;
        if (ops == null || index >= ops.length) {
            return Optional.of("no operation at " + index);
        }
        Optional<String> change = whyNotOneCall(ops[index], mutations, createsAtomically);
        if (change.isPresent()) {
            return change;
        }
        boolean saved = false;
        for (int i = 0; i < index; i++) {
            saved |= ops[i].argop == OP_SAVEFH;
        }
        for (int i = index + 1; i < ops.length; i++) {
            int op = ops[i].argop;
            saved |= op == OP_SAVEFH;
            if (!INFALLIBLE_AFTER.contains(op) && !(op == OP_RESTOREFH && saved)) {
                return Optional.of("operation " + i + " (" + org.tcnfs.nfs4.xdr.nfs_opnum4.name(op)
                        + ") may fail after the change");
            }
        }
        return Optional.empty();
    }

    /**
     * Whether the one change of a light compound is a WRITE the client sent as UNSTABLE4: like a plain unstable
     * WRITE it answers UNSTABLE4 and becomes durable with the file's next COMMIT (or any later fsync of the file),
     * so its commit needs no fsync; being one page, a power cut keeps all of it or none of it.
     *
     * @param plan the plan of a compound {@link #whyNot} let take the light path
     * @param args the compound
     */
    static boolean isUnstableWrite(TxnPlan plan, COMPOUND4args args) {
        List<Mutation> mutations = plan.mutations();
        if (mutations.isEmpty() || args.argarray == null) {
            return false;
        }
        int index = mutations.get(0).opIndex();
        return index < args.argarray.length && args.argarray[index].argop == OP_WRITE
                && args.argarray[index].args instanceof WRITE4args w && w.stable == stable_how4.UNSTABLE4;
    }

    /** Why the one changing operation is not one system call, or empty if it is. */
    private static Optional<String> whyNotOneCall(nfs_argop4 op, List<Mutation> mutations,
            BooleanSupplier createsAtomically) {
        switch (op.argop) {
            case OP_REMOVE, OP_LINK:
                return Optional.empty();
            case org.tcnfs.nfs4.xdr.nfs_opnum4.OP_RENAME:
                // rename(2) is atomic, but its directory entry (a directory fsync) and its handle row (the LMDB
                // commit) become durable at different moments: a cut between them leaves the object under its new
                // name with the row of its old one, and it gets a new handle. Only a record lets recovery undo it.
                return Optional.of("RENAME moves a handle row the directory change is not durable with");
            case OP_SETATTR: {
                for (Mutation m : mutations) {
                    if (m instanceof Mutation.AttributeChange a) {
                        Set<Integer> set = Set.copyOf(a.attributes());
                        if (ONE_CALL_GROUPS.stream().noneMatch(g -> g.containsAll(set))) {
                            return Optional.of("SETATTR of " + a.attributes() + " takes more than one call");
                        }
                    }
                }
                return Optional.empty();
            }
            case OP_OPEN:
                return whyNotOneCallOpen(op, mutations, createsAtomically);
            case OP_WRITE:
                for (Mutation m : mutations) {
                    if (!(m instanceof Mutation.Write w)) {
                        return Optional.of("WRITE changes more than its range");
                    }
                    if (w.offset() / PAGE != (w.end() - 1) / PAGE) {
                        return Optional.of("WRITE of " + w.length() + " bytes at " + w.offset()
                                + " spans pages (a kill -9 may cut it at a page boundary)");
                    }
                }
                return Optional.empty();
            default:
                return Optional.of(org.tcnfs.nfs4.xdr.nfs_opnum4.name(op.argop) + " is not one call");
        }
    }

    private static Optional<String> whyNotOneCallOpen(nfs_argop4 op, List<Mutation> mutations,
            BooleanSupplier createsAtomically) {
        OPEN4args args = op.args instanceof OPEN4args a ? a : null;
        boolean creates = mutations.stream().anyMatch(m -> m instanceof Mutation.Creation);
        if (!creates) {
            return Optional.empty(); // a truncation of an existing file alone: one ftruncate
        }
        for (Mutation m : mutations) {
            if (m instanceof Mutation.Creation c && c.type() != FileType.REGULAR) {
                return Optional.of("OPEN creates a " + c.type());
            }
        }
        if (!createsAtomically.getAsBoolean()) {
            return Optional.of("the file system creates a file and then sets its mode");
        }
        if (args == null || args.openhow == null || args.openhow.opentype != opentype4.OPEN4_CREATE
                || args.openhow.how == null) {
            return Optional.of("OPEN without create arguments");
        }
        createhow4 how = args.openhow.how;
        fattr4 attrs = switch (how.mode) {
            case createmode4.UNCHECKED4, createmode4.GUARDED4 -> how.createattrs;
            case createmode4.EXCLUSIVE4 -> null; // the verifier goes into the times, set before the name appears
            case createmode4.EXCLUSIVE4_1 -> how.ch_createboth == null ? null : how.ch_createboth.cva_attrs;
            default -> null;
        };
        if (attrs != null && attrs.attrmask != null && attrs.attrmask.value != null) {
            for (int n : Bitmaps.toNumbers(attrs.attrmask)) {
                if (n != FATTR4_MODE && n != FATTR4_SIZE) {
                    return Optional.of("OPEN sets attribute " + n + " after creating");
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Why the prepared undo steps rule the light path out, or empty if they do not. A directory kept by moving
     * it aside and leaving an empty stand-in (a RENAME over one, or a REMOVE of one where the file system cannot
     * remove a directory into a place) is a second change before the operation's own. A REMOVE of an empty
     * directory where the file system can ({@code VirtualFileSystem.removesIntoPlace}) is light: the
     * REMOVE itself renames the directory into the backup directory, one step that is the removal and keeps the
     * same directory for the undo ({@code TransactionSteps.beforeOp}).
     *
     * @param steps the prepared undo steps
     * @param args the compound
     * @param removesIntoPlace whether the export's file system removes a directory into a given place
     */
    static Optional<String> whyNotSteps(List<UndoStep> steps, COMPOUND4args args, BooleanSupplier removesIntoPlace) {
        for (UndoStep step : steps) {
            if (step instanceof UndoStep.MoveBack m && m.kind() == ObjectKind.DIRECTORY) {
                nfs_argop4[] ops = args.argarray;
                boolean remove = ops != null && m.opIndex() < ops.length && ops[m.opIndex()].argop == OP_REMOVE;
                if (!remove) {
                    return Optional.of("a directory is moved aside first");
                }
                if (!removesIntoPlace.getAsBoolean()) {
                    return Optional.of("the file system cannot remove a directory into a place");
                }
            }
        }
        return Optional.empty();
    }
}
