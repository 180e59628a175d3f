package org.tcnfs.nfs4.state;

import org.tcnfs.nfs4.status.InvalException;

/**
 * A share reservation (RFC 8881 9.7): which access an open has ({@link #access}, READ and/or WRITE bits of
 * {@code OPEN4_SHARE_ACCESS_*}) and which it denies to others ({@link #deny}, {@code OPEN4_SHARE_DENY_*}).
 *
 * @param access 1 (READ), 2 (WRITE) or 3 (BOTH)
 * @param deny 0 (NONE), 1 (READ), 2 (WRITE) or 3 (BOTH)
 */
public record ShareMode(int access, int deny) {
    /** The READ bit of access and deny. */
    public static final int READ = 1;
    /** The WRITE bit of access and deny. */
    public static final int WRITE = 2;

    public ShareMode {
        if (access < 1 || access > 3 || deny < 0 || deny > 3) {
            throw new IllegalArgumentException("share access " + access + " deny " + deny);
        }
    }

    /**
     * The share mode of an OPEN or OPEN_DOWNGRADE request; {@code access} must already be stripped of the
     * NFSv4.1 delegation wishes.
     *
     * @throws InvalException for access 0 or bits beyond BOTH, and deny bits beyond BOTH
     */
    public static ShareMode of(int access, int deny) throws InvalException {
        if (access < 1 || access > 3) {
            throw new InvalException("share access " + access);
        }
        if (deny < 0 || deny > 3) {
            throw new InvalException("share deny " + deny);
        }
        return new ShareMode(access, deny);
    }

    /** Whether this open and {@code other}, held by different open owners, cannot coexist. */
    public boolean conflictsWith(ShareMode other) {
        return (access & other.deny) != 0 || (deny & other.access) != 0;
    }

    /** Both reservations together (an OPEN upgrade). */
    public ShareMode union(ShareMode other) {
        return new ShareMode(access | other.access, deny | other.deny);
    }

    /** Whether every access and deny bit of {@code other} is also in this one. */
    public boolean includes(ShareMode other) {
        return (other.access & ~access) == 0 && (other.deny & ~deny) == 0;
    }

    public boolean allowsRead() {
        return (access & READ) != 0;
    }

    public boolean allowsWrite() {
        return (access & WRITE) != 0;
    }

    public boolean deniesRead() {
        return (deny & READ) != 0;
    }

    public boolean deniesWrite() {
        return (deny & WRITE) != 0;
    }

    @Override
    public String toString() {
        return "access=" + access + " deny=" + deny;
    }
}
