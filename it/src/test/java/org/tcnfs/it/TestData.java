package org.tcnfs.it;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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

    /** The SHA-256 of the file {@code p} in lower-case hex, read a MiB at a time. */
    static String sha256(Path p) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (FileChannel ch = FileChannel.open(p)) {
            ByteBuffer buf = ByteBuffer.allocate(1 << 20);
            while (ch.read(buf) > 0) {
                buf.flip();
                digest.update(buf);
                buf.clear();
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /**
     * Writes the new file {@code p} of {@code size} bytes: 64 KiB of random bytes seeded with {@code seed} at the
     * start of each MiB, holes between (quick to make and to hash, and a lost or misplaced piece changes its digest).
     */
    static void mostlyHoles(Path p, long size, long seed) throws IOException {
        Random random = new Random(seed);
        byte[] block = new byte[64 * 1024];
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long at = 0; at < size; at += 1024 * 1024) {
                random.nextBytes(block);
                ch.write(ByteBuffer.wrap(block, 0, (int) Math.min(block.length, size - at)), at);
            }
            if (ch.size() < size) {
                ch.write(ByteBuffer.wrap(new byte[1]), size - 1);
            }
        }
    }
}
