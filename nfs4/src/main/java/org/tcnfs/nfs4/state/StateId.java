package org.tcnfs.nfs4.state;

import java.util.Arrays;
import java.util.HexFormat;
import org.tcnfs.nfs4.xdr.stateid4;
import org.tcnfs.nfs4.xdr.XdrSupport;

/**
 * A stateid as a value: sequence id and the 12 bytes that name the state.
 *
 * @param seqid the generation of the state
 * @param other the state's identity (12 bytes, copied)
 */
public record StateId(int seqid, byte[] other) {
    private static final byte[] ZEROS = new byte[XdrSupport.NFS4_OTHER_SIZE];
    private static final byte[] ONES = filled((byte) 0xff);

    /** The anonymous stateid (all zeros). */
    public static final StateId ANONYMOUS = new StateId(0, ZEROS);
    /** The READ bypass stateid (all ones). */
    public static final StateId READ_BYPASS = new StateId(0xffffffff, ONES);
    /** The current stateid marker of NFSv4.1 (seqid 1, other zeros). */
    public static final StateId CURRENT = new StateId(1, ZEROS);
    /** The invalid stateid of NFSv4.1 (seqid 0xffffffff, other zeros). */
    public static final StateId INVALID = new StateId(0xffffffff, ZEROS);

    public StateId {
        if (other.length != XdrSupport.NFS4_OTHER_SIZE) {
            throw new IllegalArgumentException("stateid other must have 12 bytes");
        }
        other = other.clone();
    }

    /** The value of a wire stateid. */
    public static StateId of(stateid4 wire) {
        return new StateId(wire.seqid, wire.other);
    }

    /** This stateid on the wire. */
    public stateid4 toWire() {
        return new stateid4(seqid, other.clone());
    }

    @Override
    public byte[] other() {
        return other.clone();
    }

    /** Whether {@code other} is all zeros or all ones: one of the special stateids of RFC 8881 8.2.3. */
    public boolean isSpecial() {
        return Arrays.equals(other, ZEROS) || Arrays.equals(other, ONES);
    }

    /** Whether this names the same state as {@code o}, whatever the seqids. */
    public boolean sameState(StateId o) {
        return Arrays.equals(other, o.other);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StateId s && s.seqid == seqid && Arrays.equals(s.other, other);
    }

    @Override
    public int hashCode() {
        return 31 * seqid + Arrays.hashCode(other);
    }

    @Override
    public String toString() {
        return "[" + Integer.toUnsignedString(seqid) + ":" + HexFormat.of().formatHex(other) + "]";
    }

    private static byte[] filled(byte b) {
        byte[] a = new byte[XdrSupport.NFS4_OTHER_SIZE];
        Arrays.fill(a, b);
        return a;
    }
}
