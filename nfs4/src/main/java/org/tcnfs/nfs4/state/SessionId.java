package org.tcnfs.nfs4.state;

import java.util.Arrays;
import java.util.HexFormat;
import org.tcnfs.nfs4.xdr.XdrSupport;
import org.tcnfs.nfs4.xdr.sessionid4;

/**
 * The 16 bytes that name a session (RFC 8881 {@code sessionid4}).
 *
 * @param value the bytes (copied)
 */
public record SessionId(byte[] value) {
    public SessionId {
        if (value.length != XdrSupport.NFS4_SESSIONID_SIZE) {
            throw new IllegalArgumentException("a session id has 16 bytes, not " + value.length);
        }
        value = value.clone();
    }

    /** The value of a wire session id. */
    public static SessionId of(sessionid4 wire) {
        return new SessionId(wire.value);
    }

    /** This session id on the wire. */
    public sessionid4 toWire() {
        return new sessionid4(value.clone());
    }

    @Override
    public byte[] value() {
        return value.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SessionId s && Arrays.equals(s.value, value);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(value);
    }

    /** The bytes in hex, as the MDC key {@code session} shows them. */
    @Override
    public String toString() {
        return HexFormat.of().formatHex(value);
    }
}
