/**
 * One class per NFSv4 operation that changes file-system objects (issue 13, item 6: one place per operation),
 * each an {@link org.tcnfs.txn.plan.ObjectOperation}: what the operation locks and changes (its part of the
 * plan, from its decoded arguments), the kinds of {@link org.tcnfs.txn.plan.Mutation} it lists, and the kinds
 * of {@link org.tcnfs.proto.UndoStep} they are undone by. {@link org.tcnfs.txn.plan.OperationTable} makes
 * their descriptors from them; the undo of each kind of mutation is prepared by one method of {@code
 * UndoPreparer}'s {@link org.tcnfs.txn.plan.Mutation.Visitor}, and each kind of undo step is recorded and
 * executed by one method of the {@link org.tcnfs.proto.UndoStep.Visitor}s of {@code ProtoMapping} and {@code
 * UndoExecutor}, so the compiler finds every place a new kind must be known. docs/architecture.md ("One place
 * per operation") lists the steps of adding an operation.
 *
 * <p><b>Threading.</b> The classes are stateless and thread-safe; a plan's state lives in the {@link
 * org.tcnfs.txn.plan.Planning} they are given.
 *
 * <p><b>Exceptions.</b> Bad client input never throws: it stops the plan ({@code Planning.expectFailure}) or
 * makes the compound unplannable ({@code Planning.unknown}). {@code plan} throws {@link java.io.IOException}
 * only when the planner's resolver fails.
 */
package org.tcnfs.txn.ops;
