package org.tcnfs.nfs4.vfs;

import java.util.Arrays;

/**
 * Who is asking: the numeric identity from AUTH_SYS (after export squashing).
 *
 * @param uid user id
 * @param gid primary group id
 * @param groups supplementary group ids (copied)
 */
public record Credential(int uid, int gid, int[] groups) {
    /** The superuser. */
    public static final Credential ROOT = new Credential(0, 0, new int[0]);

    public Credential {
        groups = groups.clone();
    }

    @Override
    public int[] groups() {
        return groups.clone();
    }

    /** Whether this is uid 0. */
    public boolean isRoot() {
        return uid == 0;
    }

    /** Whether {@code id} is the primary or a supplementary group. */
    public boolean inGroup(int id) {
        if (gid == id) {
            return true;
        }
        for (int g : groups) {
            if (g == id) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Credential c && c.uid == uid && c.gid == gid && Arrays.equals(c.groups, groups);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * uid + gid) + Arrays.hashCode(groups);
    }

    @Override
    public String toString() {
        return "uid=" + uid + " gid=" + gid + " groups=" + Arrays.toString(groups);
    }
}
