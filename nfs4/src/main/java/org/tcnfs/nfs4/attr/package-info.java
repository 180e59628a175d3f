/**
 * NFSv4 file attributes: the mapping between {@code fattr4} on the wire and the SPI's
 * {@link org.tcnfs.nfs4.vfs.Stat} and {@link org.tcnfs.nfs4.vfs.SetAttributes}. Stateless and thread-safe.
 */
package org.tcnfs.nfs4.attr;
