/**
 * The storage SPI behind the NFS operations: {@link org.tcnfs.nfs4.vfs.VirtualFileSystem} and the value
 * types it speaks ({@link org.tcnfs.nfs4.vfs.Inode}, {@link org.tcnfs.nfs4.vfs.Stat},
 * {@link org.tcnfs.nfs4.vfs.SetAttributes}, ...).
 *
 * <p>No wire type appears here. Values are immutable records; implementations of the SPI are
 * thread-safe and report failures as {@link org.tcnfs.nfs4.status.NfsException}s.
 */
package org.tcnfs.nfs4.vfs;
