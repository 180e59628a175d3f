package org.tcnfs.it;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Random;

/** File contents the integration tests write and compare: seeded random bytes and SHA-256 digests. */
final class TestData {
    private TestData() {
    }

    /** {@code size} bytes from a {@link Random} seeded with {@code seed}: the same for the same arguments. */
    static byte[] randomBytes(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** The SHA-256 of {@code data} in lower-case hex. */
    static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
