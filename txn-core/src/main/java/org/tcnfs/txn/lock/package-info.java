/**
 * The lock manager: isolation for transactional and non-transactional compounds (DESIGN.md, "The
 * transaction protocol", step 3).
 *
 * <p><b>Contents.</b> {@link org.tcnfs.txn.lock.LockKey} names what is locked: a path relative to an
 * export root (names that do not exist yet included), or an object such as an inode
 * ({@link org.tcnfs.txn.lock.LockKey#ofObject}), so two names of one hard-linked file exclude each other.
 * A compound's pre-scan turns into {@link org.tcnfs.txn.lock.LockRequest}s (key and
 * {@link org.tcnfs.txn.lock.LockMode}); {@link org.tcnfs.txn.lock.LockManager#acquire} takes them all at
 * once and returns a {@link org.tcnfs.txn.lock.LockSet}, which the compound closes after commit or rollback.
 * Every path key also read-locks its ancestors, so a directory rename (WRITE on the directory's key)
 * conflicts with any work beneath it. Each key in use has its own
 * {@link java.util.concurrent.locks.ReentrantReadWriteLock} (created on first use, dropped when no set
 * holds or waits for it); the keys of one set are merged (a READ and a WRITE of one key become one WRITE)
 * and taken in {@link org.tcnfs.txn.lock.LockKey} order, one total order for everyone, so no deadlock is
 * possible and only compounds that share a key wait for each other.
 *
 * <p><b>Threading.</b> {@code LockManager} is thread-safe. A {@code LockSet} belongs to the thread that
 * acquired it: it must be closed on that thread (use try-with-resources), and a thread holds at most one
 * open set of a manager at a time. Keys, requests and modes are immutable values.
 *
 * <p><b>Exceptions.</b> {@link org.tcnfs.txn.lock.LockTimeoutException} (locks not granted in time) and
 * {@link org.tcnfs.txn.lock.LockInterruptedException} are checked
 * {@link org.tcnfs.txn.TxnException}s; when either is thrown nothing is held. The compound layer answers
 * both with NFS4ERR_DELAY. Invalid keys, a negative timeout, a second open set on one thread and closing on
 * a foreign thread are programming errors: {@link java.lang.IllegalArgumentException} and
 * {@link java.lang.IllegalStateException}.
 */
package org.tcnfs.txn.lock;
