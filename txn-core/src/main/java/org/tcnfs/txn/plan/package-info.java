/**
 * The pre-scan of a transactional compound (DESIGN.md, the transaction protocol, step 2): from the decoded
 * arguments, before any operation runs, which objects the compound reads and changes and what it changes.
 *
 * <p><b>Contents.</b> {@link org.tcnfs.txn.plan.CompoundPlanner} simulates the current and saved file
 * handles through the operations and produces a {@link org.tcnfs.txn.plan.TxnPlan}:
 * <ul>
 *   <li>lock keys: {@link org.tcnfs.txn.plan.PathKey}s (a place in an export, {@link
 *       org.tcnfs.txn.plan.ObjectPath}, with an {@link org.tcnfs.txn.lock.LockMode}), including names the
 *       compound creates, and {@link org.tcnfs.txn.plan.ObjectKey}s (a handle) for changed objects, so that
 *       hard links of one file exclude each other; {@link org.tcnfs.txn.plan.TxnPlan#lockRequests()} gives
 *       both as the lock manager's {@link org.tcnfs.txn.lock.LockRequest}s;</li>
 *   <li>{@link org.tcnfs.txn.plan.Mutation}s in operation order: WRITE ranges, size changes (SETATTR,
 *       truncating OPEN), SETATTRs, creations, removals, renames and links, each naming its object where the
 *       operation finds it and where it was before the compound ({@link org.tcnfs.txn.plan.ObjectRef});</li>
 *   <li>{@link org.tcnfs.txn.plan.Assumption}s: what the {@link org.tcnfs.txn.plan.PathResolver} answered,
 *       checked again once the locks are held;</li>
 *   <li>where the plan stops because an operation is bound to fail ({@link
 *       org.tcnfs.txn.plan.ExpectedFailure}), or why there is no plan ({@link
 *       org.tcnfs.txn.plan.Unplannable}).</li>
 * </ul>
 * {@link org.tcnfs.txn.plan.OperationTable} has one descriptor per operation: what it locks, what it changes
 * (nothing, only open/lock/session state, or objects), the kinds of mutation the planner lists for it and
 * the kinds of undo step that take them back; the planner consults it before every operation. An operation
 * that changes objects is one {@link org.tcnfs.txn.plan.ObjectOperation} class in {@code org.tcnfs.txn.ops},
 * which plans itself through {@link org.tcnfs.txn.plan.Planning}; the others are followed by the planner
 * ({@link org.tcnfs.txn.plan.OperationTable.Follow}).
 * The {@link org.tcnfs.txn.plan.PathResolver} is the only way to the outside: the server implements it over
 * the handle table and the export table. Everything else here is pure computation.
 *
 * <p><b>Threading.</b> {@code CompoundPlanner} is stateless and thread-safe; each call works on its own
 * state. Plans and their parts are immutable values. A resolver is called on the planning thread only.
 *
 * <p><b>Exceptions.</b> Bad client input never throws: a bad handle, name or argument stops the plan at
 * that operation ({@code ExpectedFailure}), and the operation reports its normal NFS error when it runs;
 * an operation without a descriptor makes the compound {@code Unplannable}. {@code plan} throws {@link
 * java.io.IOException} only when a resolver lookup fails. Value constructors throw {@link
 * java.lang.IllegalArgumentException} (or {@link java.lang.NullPointerException}) for values that cannot be.
 */
package org.tcnfs.txn.plan;
