/**
 * The vectorized client (vNFS style) over NFSv4.1: {@link org.tcnfs.client.vector.VnfsClient} with
 * {@code vread}, {@code vwrite}, {@code vopen}/{@code vclose}, {@code vgetattrs}, {@code vsetattrs},
 * {@code vmkdir}, {@code vlistdir}, {@code vsymlink}, {@code vreadlink}, {@code vlink}, {@code vremove},
 * {@code vrename}, {@code vcopy} and {@code vtxn}; the item records ({@link org.tcnfs.client.vector.VWrite},
 * {@link org.tcnfs.client.vector.VRename} ...), results ({@link org.tcnfs.client.vector.VResult} of
 * {@link org.tcnfs.client.vector.ItemResult}s) and the two ways a call is sent ({@link
 * org.tcnfs.client.vector.Mode}).
 *
 * <p>Threading: a client runs one call at a time (its methods are synchronized); items and results are
 * immutable. Exceptions: per-item NFS statuses are values in the result; an item that does not fit one
 * compound of the session (and cannot be split) is {@link org.tcnfs.client.vector.CompoundTooLargeException}, a
 * transaction against a server without
 * transactions {@link org.tcnfs.client.vector.TransactionsUnsupportedException}, both before anything changed;
 * transport failures are other {@link java.io.IOException}s.
 */
package org.tcnfs.client.vector;
