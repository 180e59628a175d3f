package org.tcnfs.proto;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * The 16 bytes of an NFS file handle as a record stores them (the handle table's {@code Nfh} has the same
 * layout: {@code new Nfh(high, low)}).
 *
 * @param high the first 8 bytes, big-endian
 * @param low the last 8 bytes, big-endian
 */
public record ObjectHandle(long high, long low) {

    /** Length of a handle in bytes. */
    public static final int LENGTH = 16;

    /**
     * The handle whose bytes are {@code bytes}.
     *
     * @throws IllegalArgumentException unless {@code bytes} has exactly {@value #LENGTH} bytes
     */
    public static ObjectHandle of(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("a handle has " + LENGTH + " bytes, not " + bytes.length);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new ObjectHandle(buffer.getLong(), buffer.getLong());
    }

    /** The 16 bytes of this handle (a new array). */
    public byte[] toBytes() {
        return ByteBuffer.allocate(LENGTH).putLong(high).putLong(low).array();
    }

    @Override
    public String toString() {
        return HexFormat.of().toHexDigits(high) + HexFormat.of().toHexDigits(low);
    }
}
