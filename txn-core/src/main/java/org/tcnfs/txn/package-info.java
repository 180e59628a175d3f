/**
 * The transaction layer: executes a transactional COMPOUND all-or-nothing (DESIGN.md, "The transaction
 * protocol").
 *
 * <p><b>Contents.</b> {@link org.tcnfs.txn.TransactionHook}, the compound hook that runs flagged compounds
 * all-or-nothing with online rollback and locks plain ones, a thin adapter over {@link org.tcnfs.txn.CompoundGate},
 * {@link org.tcnfs.txn.CompoundLocker}, {@link org.tcnfs.txn.Transaction} (the state machine) and
 * {@code TransactionSteps} (what a transaction does at each step); {@link org.tcnfs.txn.HandleTableResolver}, the
 * planner's view of a single export through the handle table; {@link org.tcnfs.txn.TxnException}, the root
 * of the layer's failures. Sub-packages
 * hold the building blocks: {@code .lock} (lock manager), {@code .handles} (handle tables), and later
 * {@code .backup} and {@code .undo}.
 *
 * <p><b>Threading.</b> Documented per sub-package.
 *
 * <p><b>Exceptions.</b> Failures the compound layer must answer with a status extend the checked
 * {@link org.tcnfs.txn.TxnException}; the operation executor alone maps them (DELAY, SERVERFAULT).
 * Programming errors are {@link java.lang.IllegalArgumentException} and
 * {@link java.lang.IllegalStateException}.
 */
package org.tcnfs.txn;
