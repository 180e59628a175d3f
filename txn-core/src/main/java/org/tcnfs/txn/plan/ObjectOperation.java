package org.tcnfs.txn.plan;

import java.io.IOException;
import java.util.Set;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.proto.UndoStep;

/**
 * Everything the transaction layer knows of one operation that changes file-system objects, in one class (one
 * per operation, in {@code org.tcnfs.txn.ops}): what it locks and changes ({@link #plan}, the planner's part),
 * the kinds of {@link Mutation} it lists, whose undo {@code UndoPreparer} prepares (one method of {@link
 * Mutation.Visitor} per kind), and the kinds of {@link UndoStep} they become, which the recovery record
 * encodes and the undo executor executes (one method of {@link UndoStep.Visitor} per kind). Its descriptor in
 * {@link OperationTable} is made from it ({@link OperationTable.Descriptor#of}).
 *
 * <p>Implementations are stateless and thread-safe.
 */
public non-sealed interface ObjectOperation extends OperationTable.Planner {

    /** The operation number ({@code nfs_opnum4}). */
    int opcode();

    /** What it locks. */
    OperationTable.Locks locks();

    /** The kinds of mutation {@link #plan} lists; not empty. */
    Set<Class<? extends Mutation>> mutations();

    /** The kinds of undo step its mutations are prepared into; not empty. */
    Set<Class<? extends UndoStep>> undoSteps();

    /** What a rollback does with the open and lock state it creates or changes. */
    default OperationTable.StateOnRollback state() {
        return OperationTable.StateOnRollback.NONE;
    }

    /**
     * Plans operation {@code index} of a compound: checks its arguments as it will when it runs, then adds its
     * lock keys and mutations to {@code planning} and moves the file handles as it will; or stops the plan.
     *
     * @param planning the planner's run over the compound
     * @param index the operation's position
     * @param op the operation, with its decoded arguments
     * @throws IOException if the planner's resolver fails
     */
    void plan(Planning planning, int index, nfs_argop4 op) throws IOException;
}
