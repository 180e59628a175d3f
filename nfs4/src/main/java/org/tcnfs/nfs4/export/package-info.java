/**
 * Exports: which file systems the server offers, to whom, and how; and the per-request view that joins
 * them under one pseudo root.
 *
 * <ul>
 *   <li>{@link org.tcnfs.nfs4.export.ExportsParser} reads the {@code /etc/exports} format into entries of
 *       (local path, {@link org.tcnfs.nfs4.export.ExportRule}s); the server maps each local path to a
 *       {@link org.tcnfs.nfs4.vfs.VirtualFileSystem} and makes an {@link org.tcnfs.nfs4.export.Export}.</li>
 *   <li>An {@link org.tcnfs.nfs4.export.ExportRule} pairs a {@link org.tcnfs.nfs4.export.ClientMatcher}
 *       ({@code *}, host, address, CIDR network) with {@link org.tcnfs.nfs4.export.ExportOptions} (ro/rw,
 *       squashing, anonymous ids, security flavors, transaction policy).</li>
 *   <li>{@link org.tcnfs.nfs4.export.ExportTable} is the server's
 *       {@link org.tcnfs.nfs4.vfs.FileSystemProvider}: for each request it makes a
 *       {@link org.tcnfs.nfs4.export.PseudoFs}, which routes handles to exports, hides exports the client
 *       may not see, refuses changes to read-only exports, squashes the credential and checks POSIX
 *       permissions.</li>
 * </ul>
 *
 * <p>Threading: every type is immutable and thread-safe. Exceptions: configuration errors (parser,
 * constructors) are {@link java.lang.IllegalArgumentException}s naming the problem; file system calls
 * fail with {@link org.tcnfs.nfs4.status.NfsException}s (ACCESS, PERM, ROFS, XDEV, STALE, BADHANDLE and
 * whatever the file system underneath reports).
 */
package org.tcnfs.nfs4.export;
