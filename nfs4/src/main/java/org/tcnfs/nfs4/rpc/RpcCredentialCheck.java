package org.tcnfs.nfs4.rpc;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Checks the credential and verifier of an RPC call (RFC 5531) before anything is decoded from them, so that
 * no length a client claims is ever used to allocate: a credential or verifier body over
 * {@value #MAX_AUTH_BYTES} bytes, and in AUTH_SYS a machine name over {@value #MAX_MACHINE_NAME_BYTES}
 * bytes, more than {@value #MAX_GIDS} gids or a body whose fields do not add up to its length, are refused
 * with AUTH_BADCRED (AUTH_BADVERF for the verifier), as knfsd and Ganesha do.
 *
 * <p>Only the flavors this server serves, AUTH_NONE and AUTH_SYS, go on; any other (RPCSEC_GSS, AUTH_TLS, an
 * unknown number) is refused with AUTH_BADCRED as soon as its flavor can be read. RFC 5531 has no auth_stat
 * of its own for a flavor the server does not implement: AUTH_REJECTEDCRED asks the client to begin a new
 * session of a flavor the server does serve, and AUTH_TOOWEAK refuses a flavor the server knows as too weak
 * for the request; a credential the server cannot read at all is a bad one, which is what knfsd answers for
 * an unknown flavor. It also keeps oncrpc4j from decoding them: it decodes RPCSEC_GSS by its fields
 * (allocating the handle length it claims) and calls {@code startTLS} on the AUTH_TLS flavor alone.
 *
 * <p>{@link #check} reads only the bytes it is given (a whole RPC message, from the xid on), allocates
 * nothing proportional to them and never throws: anything it cannot refuse (not a call, too short to hold a
 * flavor) is {@link Verdict#PASS}ed on to the RPC decoder, which rejects it within its bounds.
 */
public final class RpcCredentialCheck {
    /** Most bytes in the body of a credential or verifier ({@code opaque body<400>} of RFC 5531). */
    public static final int MAX_AUTH_BYTES = 400;
    /** Most bytes in the machine name of an AUTH_SYS credential ({@code string machinename<255>}). */
    public static final int MAX_MACHINE_NAME_BYTES = 255;
    /** Most supplementary gids in an AUTH_SYS credential ({@code unsigned int gids<16>}). */
    public static final int MAX_GIDS = 16;
    /** RPC_AUTH_OK. */
    public static final int AUTH_OK = 0;
    /** AUTH_BADCRED: bad credential (seal broken). */
    public static final int AUTH_BADCRED = 1;
    /** AUTH_BADVERF: bad verifier (seal broken). */
    public static final int AUTH_BADVERF = 3;

    /** AUTH_NONE (RFC 5531), served. */
    public static final int AUTH_NONE = 0;
    /** AUTH_SYS (RFC 5531), served. */
    public static final int AUTH_SYS = 1;
    /** RPCSEC_GSS (RFC 2203), not served. */
    public static final int RPCSEC_GSS = 6;
    /** AUTH_TLS (RFC 9289), not served: this server has no RPC-with-TLS. */
    public static final int AUTH_TLS = 7;

    private static final int CALL = 0;
    /** xid, msg_type, rpcvers, prog, vers, proc, then the credential's flavor. */
    private static final int FLAVOR_END = 7 * Integer.BYTES;

    /**
     * What {@link #check} found.
     *
     * @param authStat {@link #AUTH_OK} to let the call through, else the {@code auth_stat} to reject it with
     * @param reason what was wrong, for a log line; empty when let through
     */
    public record Verdict(int authStat, String reason) {
        /** Nothing here to refuse. */
        public static final Verdict PASS = new Verdict(AUTH_OK, "");

        /** Whether the call goes on to be decoded. */
        public boolean passes() {
            return authStat == AUTH_OK;
        }
    }

    private RpcCredentialCheck() {
    }

    /**
     * Checks the call in {@code message} (from its xid to its end; position and limit are left as they are).
     */
    public static Verdict check(ByteBuffer message) {
        ByteBuffer b = message.slice().order(ByteOrder.BIG_ENDIAN);
        if (b.remaining() < FLAVOR_END) {
            return Verdict.PASS;
        }
        b.getInt(); // xid
        if (b.getInt() != CALL) {
            return Verdict.PASS;
        }
        b.position(b.position() + 4 * Integer.BYTES); // rpcvers, prog, vers, proc
        int flavor = b.getInt();
        if (flavor != AUTH_NONE && flavor != AUTH_SYS) {
            return bad(AUTH_BADCRED, "credential flavor " + Integer.toUnsignedString(flavor) + " ("
                    + flavorName(flavor) + ") not served; only AUTH_NONE and AUTH_SYS are");
        }
        if (b.remaining() < Integer.BYTES) {
            return bad(AUTH_BADCRED, "credential length missing");
        }
        int length = b.getInt();
        if (length < 0 || length > MAX_AUTH_BYTES) {
            return bad(AUTH_BADCRED, "credential body of " + Integer.toUnsignedString(length) + " bytes (at most "
                    + MAX_AUTH_BYTES + ")");
        }
        int padded = padded(length);
        if (b.remaining() < padded) {
            return bad(AUTH_BADCRED, "credential of " + length + " bytes truncated to " + b.remaining());
        }
        if (flavor == AUTH_SYS) {
            Verdict sys = checkAuthSys(b.slice(b.position(), length).order(ByteOrder.BIG_ENDIAN));
            if (!sys.passes()) {
                return sys;
            }
        }
        b.position(b.position() + padded);
        if (b.remaining() < 2 * Integer.BYTES) {
            return bad(AUTH_BADVERF, "verifier missing");
        }
        b.getInt(); // verifier flavor
        int verifierLength = b.getInt();
        if (verifierLength < 0 || verifierLength > MAX_AUTH_BYTES) {
            return bad(AUTH_BADVERF, "verifier body of " + Integer.toUnsignedString(verifierLength)
                    + " bytes (at most " + MAX_AUTH_BYTES + ")");
        }
        if (b.remaining() < padded(verifierLength)) {
            return bad(AUTH_BADVERF, "verifier of " + verifierLength + " bytes truncated to " + b.remaining());
        }
        return Verdict.PASS;
    }

    /** {@code authsys_parms}: stamp, machinename<255>, uid, gid, gids<16>, and nothing after. */
    private static Verdict checkAuthSys(ByteBuffer body) {
        if (body.remaining() < 2 * Integer.BYTES) {
            return bad(AUTH_BADCRED, "AUTH_SYS body of " + body.remaining() + " bytes too short");
        }
        body.getInt(); // stamp
        int nameLength = body.getInt();
        if (nameLength < 0 || nameLength > MAX_MACHINE_NAME_BYTES) {
            return bad(AUTH_BADCRED, "AUTH_SYS machine name of " + Integer.toUnsignedString(nameLength)
                    + " bytes (at most " + MAX_MACHINE_NAME_BYTES + ")");
        }
        if (body.remaining() < padded(nameLength) + 3 * Integer.BYTES) {
            return bad(AUTH_BADCRED, "AUTH_SYS body too short for its machine name of " + nameLength + " bytes");
        }
        body.position(body.position() + padded(nameLength));
        body.getInt(); // uid
        body.getInt(); // gid
        int gids = body.getInt();
        if (gids < 0 || gids > MAX_GIDS) {
            return bad(AUTH_BADCRED, "AUTH_SYS credential with " + Integer.toUnsignedString(gids)
                    + " gids (at most " + MAX_GIDS + ")");
        }
        if (body.remaining() != gids * Integer.BYTES) {
            return bad(AUTH_BADCRED, "AUTH_SYS body length does not match its " + gids + " gids");
        }
        return Verdict.PASS;
    }

    private static String flavorName(int flavor) {
        return switch (flavor) {
            case RPCSEC_GSS -> "RPCSEC_GSS";
            case AUTH_TLS -> "AUTH_TLS";
            case 2 -> "AUTH_SHORT";
            case 3 -> "AUTH_DH";
            default -> "unknown";
        };
    }

    private static int padded(int length) {
        return (length + 3) & ~3;
    }

    private static Verdict bad(int authStat, String reason) {
        return new Verdict(authStat, reason);
    }
}
