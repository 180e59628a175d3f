/**
 * Wiring of the transaction layer ({@code org.tcnfs.txn}) into the server.
 *
 * <p><b>Contents.</b> {@link org.tcnfs.server.txn.TransactionWiring}: for the default single export at "/",
 * a {@link org.tcnfs.txn.TransactionHook} over the export's {@link org.tcnfs.server.fs.LocalFileSystem},
 * the handle table, one lock manager and a backup area in the export's hidden {@code .tcnfs/txn}
 * directory, and acceptance of RPC procedure {@code 0x80000001}. Servers with an exports file stay
 * non-transactional for now (logged).
 *
 * <p><b>Threading.</b> Wiring happens once at start; the hook is thread-safe.
 *
 * <p><b>Exceptions.</b> {@link java.io.IOException} when the backup area cannot be opened.
 */
package org.tcnfs.server.txn;
