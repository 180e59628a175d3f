package org.tcnfs.client.rpc;

import java.util.Objects;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeUnix;

/**
 * An AUTH_SYS identity (RFC 5531, appendix A): user, primary group, supplementary groups and the
 * machine name the call claims to come from.
 *
 * @param uid the caller's user id
 * @param gid the caller's primary group id
 * @param gids supplementary group ids (at most 16, as AUTH_SYS allows)
 * @param machine the machine name sent with the credential
 */
public record AuthSys(int uid, int gid, int[] gids, String machine) {
    /** The most supplementary groups an AUTH_SYS credential carries. */
    public static final int MAX_GIDS = 16;

    /** root (uid 0, gid 0), no supplementary groups. */
    public static final AuthSys ROOT = new AuthSys(0, 0, new int[0], "tcnfs-client");

    public AuthSys {
        Objects.requireNonNull(machine, "machine");
        gids = Objects.requireNonNull(gids, "gids").clone();
        if (gids.length > MAX_GIDS) {
            throw new IllegalArgumentException("AUTH_SYS carries at most " + MAX_GIDS + " groups, not " + gids.length);
        }
        if (machine.length() > 255) {
            throw new IllegalArgumentException("machine name longer than 255 bytes");
        }
    }

    /** A credential for {@code uid}/{@code gid} with the given supplementary groups. */
    public static AuthSys of(int uid, int gid, int... gids) {
        return new AuthSys(uid, gid, gids, "tcnfs-client");
    }

    @Override
    public int[] gids() {
        return gids.clone();
    }

    RpcAuthTypeUnix toRpcAuth() {
        return new RpcAuthTypeUnix(uid, gid, gids.clone(), (int) (System.currentTimeMillis() / 1000), machine);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AuthSys other && uid == other.uid && gid == other.gid
                && java.util.Arrays.equals(gids, other.gids) && machine.equals(other.machine);
    }

    @Override
    public int hashCode() {
        return Objects.hash(uid, gid, java.util.Arrays.hashCode(gids), machine);
    }

    @Override
    public String toString() {
        return "AuthSys[uid=" + uid + ", gid=" + gid + ", gids=" + java.util.Arrays.toString(gids) + "]";
    }
}
