/**
 * The backup manager: before a transaction's mutation destroys data or names, save them so that undo can
 * put them back (DESIGN.md, transaction protocol step 4).
 *
 * <p><b>Contents.</b> {@link org.tcnfs.txn.backup.BackupStore} is the backup area of one export's file
 * system (such as {@code <export>/.tcnfs/txn}); it hands out one {@link org.tcnfs.txn.backup.BackupManager}
 * per transaction, working in its own directory beneath the area. A manager saves byte ranges before WRITE
 * and size changes ({@link org.tcnfs.txn.backup.RangeBackup}: only the allocated extents of the range, found
 * with {@code SEEK_DATA}/{@code SEEK_HOLE}, each by {@code FICLONERANGE} of the block-aligned covering range
 * or by a copy of exactly the extent; holes stay holes in the backup file, and a restore punches them back
 * into the file, so sparse files stay sparse across a rollback; nothing past the old end of file, only the
 * old size),
 * moves REMOVE victims and RENAME targets aside ({@link org.tcnfs.txn.backup.MovedAside}), undoes both
 * idempotently, makes its work durable in one pass of fsyncs per transaction, and deletes its directory
 * when the background cleaner asks. The {@link org.tcnfs.txn.backup.Backup} records say everything undo
 * needs, so the transaction layer stores them in its recovery record and recovery undoes them after a
 * restart. {@link org.tcnfs.txn.backup.Reflink} is the only class with native code (jnr-ffi over libc:
 * {@code ioctl(FICLONERANGE)}, {@code open}, {@code fsync}, {@code renameat2}, {@code lseek(SEEK_DATA /
 * SEEK_HOLE)}, {@code fallocate(FALLOC_FL_PUNCH_HOLE)}).
 *
 * <p><b>Budget.</b> A {@link org.tcnfs.txn.backup.BackupBudget} bounds the allocated bytes of backups, per
 * transaction and for the whole server; the transaction layer checks a transaction's planned backups against
 * it before anything changes ({@link org.tcnfs.txn.backup.BackupManager#checkBudget}), and every backup is
 * charged as it is made. Over the budget: {@link org.tcnfs.txn.backup.BackupBudgetExceededException}.
 *
 * <p><b>Clone or copy.</b> A clone is tried first. It falls back to a copy when the kernel refuses it with
 * {@code EOPNOTSUPP} (no reflink: ext4, tmpfs), {@code EXDEV} (another mount), {@code EINVAL} (alignment or
 * file kinds the file system rejects), {@code ENOTTY}/{@code ENOSYS} (no such ioctl) or {@code ETXTBSY}
 * (swap or running file); after {@code EOPNOTSUPP}, {@code ENOTTY} or {@code ENOSYS} the store stops trying.
 * Every other errno ({@code EIO}, {@code ENOSPC}, {@code EPERM} ...) would defeat a copy too and is an
 * error. Counters of bytes cloned, copied and restored exist per manager and per store.
 *
 * <p><b>Durability.</b> No operation syncs by itself; {@link org.tcnfs.txn.backup.BackupManager#makeDurable()}
 * syncs the backup files, the backup directory and every directory a rename touched (after undo: the
 * restored files and directories), because a sync per backup costs 3-6 times the write it protects.
 *
 * <p><b>Threading.</b> The store is thread-safe; a manager's methods are synchronized. The caller holds the
 * locks of the files involved, so nothing else changes them during a backup or an undo.
 *
 * <p><b>Exceptions.</b> File system failures are {@link java.io.IOException}s ({@code NoSuchFileException},
 * {@code FileAlreadyExistsException} when undo would overwrite a name taken since, {@code
 * AtomicMoveNotSupportedException} when a rename would cross file systems, {@code FileSystemException} with
 * the errno name otherwise); a failed backup records nothing. Misuse (negative ranges, a manager used after
 * {@code discard()}) is {@link java.lang.IllegalArgumentException} or {@link java.lang.IllegalStateException}.
 * {@link java.lang.UnsupportedOperationException} when the native binding is unavailable (not Linux).
 * Nothing here knows NFS statuses: the transaction layer maps failures.
 */
package org.tcnfs.txn.backup;
