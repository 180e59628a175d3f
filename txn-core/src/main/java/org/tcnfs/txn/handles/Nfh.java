package org.tcnfs.txn.handles;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.UUID;

/**
 * A 16-byte NFS file handle as clients see it: random, UUID-like bytes (version 4 layout from a
 * {@link java.security.SecureRandom}), meaningless without the {@link HandleTable}.
 *
 * <p>Held as two longs so that equality, hashing and ordering are by value.
 *
 * @param high the first 8 bytes, big-endian
 * @param low the last 8 bytes, big-endian
 */
public record Nfh(long high, long low) {

    /** Length of a handle in bytes. */
    public static final int LENGTH = 16;

    /** A fresh random handle ({@link UUID#randomUUID()}, which draws from a {@code SecureRandom}). */
    public static Nfh random() {
        UUID uuid = UUID.randomUUID();
        return new Nfh(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits());
    }

    /**
     * The handle whose bytes are {@code bytes}.
     *
     * @throws IllegalArgumentException unless {@code bytes} has exactly {@value #LENGTH} bytes
     */
    public static Nfh of(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("a handle has " + LENGTH + " bytes, not " + bytes.length);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new Nfh(buffer.getLong(), buffer.getLong());
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
