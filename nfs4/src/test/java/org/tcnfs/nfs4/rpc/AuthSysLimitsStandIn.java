package org.tcnfs.nfs4.rpc;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * Test stand-in for the credential check issue 14 puts in front of oncrpc4j, written from RFC 5531 for the
 * fuzz target until the server's own check exists (then {@link RpcCallFuzzTest} calls that one instead).
 * It refuses what the fuzz target found oncrpc4j allocating or failing on (see {@code AuthSysLimitsStandInTest}):
 * more than 16 gids, a credential or verifier body over 400 bytes, a machine name over 255 bytes, an
 * AUTH_SYS body its fields do not fill exactly, and any flavor but AUTH_NONE and AUTH_SYS, the two this
 * server serves.
 */
final class AuthSysLimitsStandIn implements RpcRecordHarness.FrontCheck {
    static final int MAX_GIDS = 16;
    static final int MAX_AUTH_BYTES = 400;
    static final int MAX_MACHINE_NAME = 255;
    private static final int AUTH_NONE = 0;
    private static final int AUTH_SYS = 1;
    /** RPCSEC_GSS (RFC 2203): not served here. */
    static final int RPCSEC_GSS = 6;
    /** RFC 9289: asks the server to start TLS; oncrpc4j then fails with NoSuchElementException without TLS. */
    static final int AUTH_TLS = 7;

    @Override
    public boolean admits(byte[] record) {
        ByteBuffer in = ByteBuffer.wrap(record);
        try {
            in.getInt(); // xid
            if (in.getInt() != 0) {
                return true; // not a call: oncrpc4j reads no credential
            }
            in.position(in.position() + 16); // rpcvers, prog, vers, proc
            int flavor = in.getInt();
            if (flavor != AUTH_NONE && flavor != AUTH_SYS) {
                // the flavors this server serves; oncrpc4j starts TLS on AUTH_TLS before it reads anything
                // else, and decodes RPCSEC_GSS by its fields, allocating the handle length it claims
                return false;
            }
            int length = in.getInt();
            if (length < 0 || length > MAX_AUTH_BYTES) {
                return false;
            }
            if (flavor == AUTH_SYS && !authSysBodyWithinLimits(in.slice().limit(Math.min(length, in.remaining())))) {
                return false;
            }
            in.position(in.position() + ((length + 3) & ~3));
            in.getInt(); // verifier flavor
            int verifier = in.getInt();
            return verifier >= 0 && verifier <= MAX_AUTH_BYTES;
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            return true; // the header ends early: oncrpc4j's own reading fails before it allocates anything
        }
    }

    /**
     * Whether an {@code authsys_parms} fills its body exactly and keeps its limits. oncrpc4j ignores the
     * body's length: it reads the fields and then the verifier where they end, so a body longer than its
     * fields would let a verifier length that was never checked be allocated.
     */
    private static boolean authSysBodyWithinLimits(ByteBuffer body) {
        try {
            body.getInt(); // stamp
            int machine = body.getInt();
            if (machine < 0 || machine > MAX_MACHINE_NAME) {
                return false;
            }
            body.position(body.position() + ((machine + 3) & ~3) + 8); // name, uid, gid
            int gids = body.getInt();
            // exactly: oncrpc4j reads the verifier where the fields end, not where the length says
            return gids >= 0 && gids <= MAX_GIDS && body.remaining() == 4 * gids;
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            return false;
        }
    }
}
