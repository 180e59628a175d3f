/**
 * The handle table: the persistent, two-way map between the 16-byte random file handles clients hold
 * ({@link org.tcnfs.txn.handles.Nfh}) and local objects, with each object's place in the tree (parent
 * handle and name), so paths derive from handles, a directory rename is one row, and handles survive
 * restarts.
 *
 * <p><b>Contents.</b> {@link org.tcnfs.txn.handles.HandleTable} owns the LMDB environment (lmdbjava, byte
 * array buffers, so no {@code --add-opens} is needed). {@link org.tcnfs.txn.handles.HandleSnapshot} reads
 * and {@link org.tcnfs.txn.handles.HandleBatch} writes, both through one LMDB transaction each and both
 * {@link org.tcnfs.txn.handles.HandleView}s. Values: {@link org.tcnfs.txn.handles.Node} (export, type,
 * {@code st_dev}, {@code st_ino}, a generation such as the birth time, names) and
 * {@link org.tcnfs.txn.handles.Link} (parent handle, name), stored in the small binary layout documented in {@code Codec}. A regular file with several hard links has
 * one handle and one {@link org.tcnfs.txn.handles.Link} per known name; removing a name keeps the handle
 * while another name is left.
 *
 * <p><b>For the transaction layer.</b> A batch can carry handle changes and the layer's own records
 * ({@link org.tcnfs.txn.handles.SideTable}) in one atomic, durable LMDB commit; handles can be chosen
 * before they are registered ({@link org.tcnfs.txn.handles.HandleBatch#register(Nfh, Nfh, String,
 * org.tcnfs.nfs4.vfs.FileType, long, long, long)}).
 *
 * <p><b>Pending rows.</b> Plain compounds on {@code async} exports leave their rows in memory, visible to every
 * reader, until the next LMDB commit or the background flush ({@code PendingRows}, {@link
 * org.tcnfs.txn.handles.LateDurability}): a crash may lose them, which only makes their handles stale.
 *
 * <p><b>Threading.</b> The table is thread-safe. Snapshots and batches are single-threaded; a batch stays
 * on the thread that opened it, and only one batch is open at a time in the process (others block).
 *
 * <p><b>Exceptions.</b> Storage failures are the unchecked {@link org.tcnfs.txn.handles.HandleTableException}
 * ({@link org.tcnfs.txn.handles.HandleTable.MapFullException} when the map is full). Calls that would break
 * the table's invariants throw {@link java.lang.IllegalStateException} or
 * {@link java.lang.IllegalArgumentException} and change nothing further; the batch can be rolled back.
 * The table knows nothing of NFS statuses: the file system maps these to them.
 */
package org.tcnfs.txn.handles;
