package org.tcnfs.nfs4.attr;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/** Appends XDR items to a growable byte array: the {@code attr_vals} of an {@code fattr4} being built. */
final class AttrWriter {
    private byte[] buf;
    private int len;

    AttrWriter(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    int size() {
        return len;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    void putInt(int v) {
        ensure(4);
        buf[len++] = (byte) (v >>> 24);
        buf[len++] = (byte) (v >>> 16);
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) v;
    }

    void putLong(long v) {
        putInt((int) (v >>> 32));
        putInt((int) v);
    }

    void putBoolean(boolean v) {
        putInt(v ? 1 : 0);
    }

    /** A variable-length opaque: length, bytes, zero padding to four bytes. */
    void putOpaque(byte[] bytes) {
        putInt(bytes.length);
        int padded = (bytes.length + 3) & ~3;
        ensure(padded);
        System.arraycopy(bytes, 0, buf, len, bytes.length);
        Arrays.fill(buf, len + bytes.length, len + padded, (byte) 0);
        len += padded;
    }

    void putString(String s) {
        putOpaque(s.getBytes(StandardCharsets.UTF_8));
    }

    /** A {@code bitmap4}. */
    void putBitmap(int[] words) {
        putInt(words.length);
        for (int w : words) {
            putInt(w);
        }
    }

    /** An {@code nfstime4}. */
    void putTime(Instant t) {
        putLong(t.getEpochSecond());
        putInt(t.getNano());
    }

    private void ensure(int n) {
        if (len + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }
}
