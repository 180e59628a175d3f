/**
 * NFSv4 file attributes: the mapping between {@code fattr4} on the wire and the SPI's
 * {@link org.tcnfs.nfs4.vfs.Stat} and {@link org.tcnfs.nfs4.vfs.SetAttributes}.
 *
 * <p>{@link org.tcnfs.nfs4.attr.FileAttributes} is the entry point (encode for GETATTR and READDIR, decode for
 * SETATTR and create attributes, compare for VERIFY); {@link org.tcnfs.nfs4.attr.FileAttribute} has one
 * constant per supported attribute with its encoder and, if settable, decoder;
 * {@link org.tcnfs.nfs4.attr.IdMapper} maps owner strings; {@link org.tcnfs.nfs4.attr.Bitmaps} helps with
 * masks. Attribute numbers are the {@code FATTR4_*} constants of {@link org.tcnfs.nfs4.xdr.nfs4_attr}.
 *
 * <p>Threading: everything here is stateless or immutable except the id mapper's cache, which is
 * thread-safe. Exceptions: failures are {@link org.tcnfs.nfs4.status.NfsException}s (ATTRNOTSUPP, INVAL,
 * BADXDR, BADOWNER, FBIG, or whatever the file system threw while attributes were gathered).
 */
package org.tcnfs.nfs4.attr;
