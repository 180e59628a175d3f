/**
 * Startup recovery of interrupted transactions (issue 4): {@link org.tcnfs.recovery.RecoveryService} reads
 * every recovery record the transaction layer left in LMDB, undoes it with the same
 * {@link org.tcnfs.txn.undo.UndoExecutor} online rollback uses, makes that durable, deletes the record, and
 * removes backup directories no record refers to. It runs before the server accepts requests, so nothing
 * races it; a crash during recovery is recovered by the next start (undo is idempotent and records its
 * progress). {@link org.tcnfs.recovery.RecoveryService#check()} reports the same without changing anything.
 *
 * <p>Threading: one thread, at start. Exceptions: {@link org.tcnfs.recovery.RecoveryException} when a record
 * cannot be read or undone; the server refuses to start and the record stays for the operator.
 */
package org.tcnfs.recovery;
