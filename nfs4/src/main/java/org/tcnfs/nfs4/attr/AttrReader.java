package org.tcnfs.nfs4.attr;

import java.time.Instant;
import org.tcnfs.nfs4.status.BadXdrException;
import org.tcnfs.nfs4.status.InvalException;

/**
 * Reads XDR items from the {@code attr_vals} of an {@code fattr4}. Running out of bytes or a malformed
 * item is NFS4ERR_BADXDR.
 */
final class AttrReader {
    private final byte[] buf;
    private int pos;

    AttrReader(byte[] buf) {
        this.buf = buf;
    }

    boolean hasRemaining() {
        return pos < buf.length;
    }

    int getInt() throws BadXdrException {
        need(4);
        int v = ((buf[pos] & 0xff) << 24) | ((buf[pos + 1] & 0xff) << 16) | ((buf[pos + 2] & 0xff) << 8)
                | (buf[pos + 3] & 0xff);
        pos += 4;
        return v;
    }

    long getLong() throws BadXdrException {
        long hi = getInt() & 0xffffffffL;
        long lo = getInt() & 0xffffffffL;
        return (hi << 32) | lo;
    }

    /** A variable-length opaque of at most {@code max} bytes. */
    byte[] getOpaque(int max) throws BadXdrException {
        int n = getInt();
        if (n < 0 || n > max) {
            throw new BadXdrException("opaque of " + Integer.toUnsignedString(n) + " bytes exceeds " + max);
        }
        int padded = (n + 3) & ~3;
        need(padded);
        byte[] out = new byte[n];
        System.arraycopy(buf, pos, out, 0, n);
        pos += padded;
        return out;
    }

    /** An {@code nfstime4}; nanoseconds of a billion or more are NFS4ERR_INVAL. */
    Instant getTime() throws BadXdrException, InvalException {
        long seconds = getLong();
        int nanos = getInt();
        if (nanos < 0 || nanos >= 1_000_000_000) {
            throw new InvalException("nseconds out of range: " + Integer.toUnsignedString(nanos));
        }
        try {
            return Instant.ofEpochSecond(seconds, nanos);
        } catch (java.time.DateTimeException e) {
            throw new InvalException("time out of range: " + seconds);
        }
    }

    private void need(int n) throws BadXdrException {
        if (n > buf.length - pos) {
            throw new BadXdrException("attribute values end early");
        }
    }
}
