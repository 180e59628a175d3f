/**
 * NFS status codes and the exceptions that carry them.
 *
 * <p>{@link org.tcnfs.nfs4.status.NfsStatus} lists every {@code nfsstat4}. Each status has one final
 * subclass of {@link org.tcnfs.nfs4.status.NfsException}; operations throw them and the compound engine
 * maps them to results in one place. All types are immutable and thread-safe.
 */
package org.tcnfs.nfs4.status;
