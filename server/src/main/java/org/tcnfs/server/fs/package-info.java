/**
 * The local file system behind an export: {@link org.tcnfs.server.fs.LocalFileSystem} implements the
 * {@link org.tcnfs.nfs4.vfs.VirtualFileSystem} SPI over one local directory, naming objects by the random
 * handles of a shared {@link org.tcnfs.txn.handles.HandleTable}.
 *
 * <p><b>Contents.</b> {@code LocalFileSystem} (public; static factory {@code open} and a builder) and its
 * package-private helpers: {@code Posix} (every JNR call: statx, or lstat, with nanosecond and birth times, chmod, lchown,
 * mknod, mkfifo, link, symlink, readlink, rename, utimensat, statvfs), {@code FsErrors} (the one mapping of
 * errno values and NIO exceptions to NFS status exceptions), {@code ChannelCache} (bounded, reference
 * counted open files), {@code ChangeTracker} (the {@code change} attribute), {@code DirectoryIndex}
 * (name-derived directory cookies).
 *
 * <p><b>Threading.</b> Everything here is thread-safe; a {@code LocalFileSystem} serves all requests of
 * its export concurrently. The server never follows a symbolic link and never resolves anything outside
 * the export root.
 *
 * <p><b>Exceptions.</b> Methods throw the {@link org.tcnfs.nfs4.status.NfsException} of the status the SPI
 * names ({@code StaleException} for a handle whose object is gone, {@code BadHandleException} for bytes that
 * are not a handle, ...); unexpected local failures are {@code IoException}s, logged with their cause.
 */
package org.tcnfs.server.fs;
