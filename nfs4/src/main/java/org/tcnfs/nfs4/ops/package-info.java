/**
 * One class per NFSv4 operation, named as the RFC names it ({@code OperationREAD},
 * {@code OperationOPEN_DOWNGRADE}), listed in {@link org.tcnfs.nfs4.ops.Operations}.
 *
 * <p>Each converts its wire arguments into values on its first lines, works through the
 * {@link org.tcnfs.nfs4.vfs.VirtualFileSystem} of the context and the state handler, and reports failures
 * by throwing the {@link org.tcnfs.nfs4.status.NfsException} of the status. Operations are stateless and
 * thread-safe.
 *
 * <p>Operations serve NFSv4.0 (RFC 7530) and 4.1 (RFC 8881). The NFSv4.0-only ones (SETCLIENTID,
 * SETCLIENTID_CONFIRM, RENEW, OPEN_CONFIRM, RELEASE_LOCKOWNER) have classes of their own; the stateful
 * operations both versions share find the client of a minor-version-0 request through its client id or
 * stateid instead of a session, and those that carry an owner seqid (OPEN, OPEN_CONFIRM, OPEN_DOWNGRADE,
 * CLOSE, LOCK, LOCKU) run in that owner's {@link org.tcnfs.nfs4.state.OwnerSequence}, which answers a
 * retransmission with the earlier reply.
 */
package org.tcnfs.nfs4.ops;
