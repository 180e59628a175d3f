package org.tcnfs.nfs4.state;

import java.util.Arrays;
import java.util.HexFormat;
import org.tcnfs.nfs4.xdr.XdrSupport;

/**
 * A client's long-lived identity ({@code co_ownerid} of EXCHANGE_ID), the same across client restarts.
 *
 * @param value the bytes (copied; at most 1,024 of them)
 */
public record OwnerId(byte[] value) {
    public OwnerId {
        if (value.length > XdrSupport.NFS4_OPAQUE_LIMIT) {
            throw new IllegalArgumentException("owner id longer than 1024 bytes");
        }
        value = value.clone();
    }

    /** Parses the hex form written by {@link #hex()}. */
    public static OwnerId ofHex(String hex) {
        return new OwnerId(HexFormat.of().parseHex(hex));
    }

    @Override
    public byte[] value() {
        return value.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OwnerId other && Arrays.equals(other.value, value);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(value);
    }

    /** The bytes in hex (the client record's form). */
    public String hex() {
        return HexFormat.of().formatHex(value);
    }

    /** Most characters {@link #toString()} shows before it cuts the rest off. */
    private static final int READABLE_MAX = 160;

    /**
     * The owner as people read it in a log line: clients send printable text (the Linux client
     * {@code "Linux NFSv4.1 host"}, libnfs {@code "libnfs-..."}), shown in quotes; any other byte as
     * {@code \xNN}, a backslash or quote escaped, cut after {@value #READABLE_MAX} characters.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(Math.min(value.length, READABLE_MAX) + 2).append('"');
        for (int i = 0; i < value.length; i++) {
            if (sb.length() > READABLE_MAX) {
                sb.append("...(").append(value.length).append(" bytes)");
                break;
            }
            int b = value[i] & 0xff;
            if (b == '"' || b == '\\') {
                sb.append('\\').append((char) b);
            } else if (b >= 0x20 && b < 0x7f) {
                sb.append((char) b);
            } else {
                sb.append(String.format("\\x%02x", b));
            }
        }
        return sb.append('"').toString();
    }
}
