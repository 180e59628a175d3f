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

    /** Parses the hex form written by {@link #toString()}. */
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

    /** The bytes in hex. */
    @Override
    public String toString() {
        return HexFormat.of().formatHex(value);
    }
}
