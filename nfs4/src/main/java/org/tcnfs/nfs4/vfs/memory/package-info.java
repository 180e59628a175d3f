/**
 * An in-memory {@link org.tcnfs.nfs4.vfs.VirtualFileSystem}:
 * {@link org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem}, a complete implementation of the SPI for tests
 * and demonstrations (nothing survives the JVM).
 *
 * <p>Threading: thread-safe, one read-write lock per file system. Exceptions: the
 * {@link org.tcnfs.nfs4.status.NfsException}s the SPI documents; nothing else is thrown for bad input.
 */
package org.tcnfs.nfs4.vfs.memory;
