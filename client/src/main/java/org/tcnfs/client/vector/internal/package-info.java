/**
 * The machinery behind {@link org.tcnfs.client.vector.VnfsClient}, not API: {@link
 * org.tcnfs.client.vector.internal.Step} (one item's operations and how to read their results), {@link
 * org.tcnfs.client.vector.internal.Emitter} (path resolution inside a compound: PUTFH of the export's root,
 * LOOKUPs, SAVEFH/RESTOREFH reuse of a directory) and {@link org.tcnfs.client.vector.internal.Packer} (packs
 * steps into as few compounds as the session's limits allow, or refuses a transaction that does not fit) and
 * {@link org.tcnfs.client.vector.internal.Backoff} (growing pauses between retries of NFS4ERR_DELAY and
 * NFS4ERR_GRACE).
 *
 * <p>Threading: none of these are thread-safe; a call uses its own. Exceptions: {@link java.io.IOException}s
 * from decoding replies; {@link org.tcnfs.client.vector.CompoundTooLargeException} from the packer.
 */
package org.tcnfs.client.vector.internal;
