package org.tcnfs.nfs4.vfs;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A file system object as the client names it: the opaque bytes of its NFS file handle.
 *
 * <p>The bytes are copied in and out, so an {@code Inode} is immutable; equality is by content.
 */
public final class Inode {
    private final byte[] handle;

    private Inode(byte[] handle) {
        this.handle = handle;
    }

    /** An inode for a copy of {@code handle}. */
    public static Inode of(byte[] handle) {
        return new Inode(handle.clone());
    }

    /** A copy of the handle bytes. */
    public byte[] toBytes() {
        return handle.clone();
    }

    /** The handle's length in bytes. */
    public int length() {
        return handle.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Inode other && Arrays.equals(handle, other.handle);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(handle);
    }

    @Override
    public String toString() {
        return HexFormat.of().formatHex(handle);
    }
}
