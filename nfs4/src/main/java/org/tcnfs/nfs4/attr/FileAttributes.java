package org.tcnfs.nfs4.attr;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.status.NotSuppException;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.fattr4;

/**
 * Converts between {@code fattr4} and the values of the SPI. Placeholder shape; the attribute layer fills
 * it in.
 */
public final class FileAttributes {
    private FileAttributes() {
    }

    /** The attributes this server supports ({@code supported_attrs}). */
    public static bitmap4 supported() {
        return new bitmap4(new int[0]);
    }

    /**
     * Encodes the {@code requested} attributes of {@code inode} (whose {@code stat} the caller already has);
     * attributes the server does not support are left out of the returned mask.
     */
    public static fattr4 encode(CompoundContext context, Inode inode, Stat stat, bitmap4 requested) throws IOException {
        throw new NotSuppException("attributes not yet encoded");
    }

    /**
     * Decodes attributes a client wants to set (SETATTR, OPEN and CREATE create attributes).
     *
     * @throws org.tcnfs.nfs4.status.AttrNotSuppException for an attribute the server does not support
     * @throws org.tcnfs.nfs4.status.InvalException for a read-only attribute or a bad value
     * @throws org.tcnfs.nfs4.status.BadXdrException if the values do not decode
     */
    public static SetAttributes decodeSettable(CompoundContext context, fattr4 attrs) throws IOException {
        throw new NotSuppException("attributes not yet decoded");
    }
}
