/**
 * One class per NFSv4 operation, named as the RFC names it ({@code OperationREAD},
 * {@code OperationOPEN_DOWNGRADE}), listed in {@link org.tcnfs.nfs4.ops.Operations}.
 *
 * <p>Each converts its wire arguments into values on its first lines, works through the
 * {@link org.tcnfs.nfs4.vfs.VirtualFileSystem} of the context and the state handler, and reports failures
 * by throwing the {@link org.tcnfs.nfs4.status.NfsException} of the status. Operations are stateless and
 * thread-safe.
 */
package org.tcnfs.nfs4.ops;
