package org.tcnfs.nfs4.ops;

import static org.tcnfs.nfs4.xdr.ACCESS4args.ACCESS4_DELETE;
import static org.tcnfs.nfs4.xdr.ACCESS4args.ACCESS4_EXECUTE;
import static org.tcnfs.nfs4.xdr.ACCESS4args.ACCESS4_EXTEND;
import static org.tcnfs.nfs4.xdr.ACCESS4args.ACCESS4_LOOKUP;
import static org.tcnfs.nfs4.xdr.ACCESS4args.ACCESS4_MODIFY;
import static org.tcnfs.nfs4.xdr.ACCESS4args.ACCESS4_READ;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.vfs.AccessRight;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.ACCESS4args;
import org.tcnfs.nfs4.xdr.ACCESS4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * ACCESS (RFC 8881 18.1): which of the requested rights the caller has on the current object.
 *
 * <p>{@code supported} is the requested bits among the six of RFC 8881 (READ, LOOKUP, MODIFY, EXTEND,
 * DELETE, EXECUTE) that mean something for the object's type (LOOKUP and DELETE for directories only,
 * EXECUTE for non-directories only); other bits (the extended-attribute bits of RFC 8276, say) are left
 * out of both answers. {@code access} is what the caller's file system view grants of them. The handle is always
 * checked first ({@code getattr}), so a stale one is NFS4ERR_STALE even where {@code access} checks nothing.
 */
public final class OperationACCESS implements NfsOperation {
    private static final Map<AccessRight, Integer> BITS = Map.of(
            AccessRight.READ, ACCESS4_READ,
            AccessRight.LOOKUP, ACCESS4_LOOKUP,
            AccessRight.MODIFY, ACCESS4_MODIFY,
            AccessRight.EXTEND, ACCESS4_EXTEND,
            AccessRight.DELETE, ACCESS4_DELETE,
            AccessRight.EXECUTE, ACCESS4_EXECUTE);

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        int requestedBits = ((ACCESS4args) op.args).access;
        Inode inode = context.currentInode();
        Set<AccessRight> requested = rightsOf(requestedBits);
        // access() of a file system that checks nothing does not look at the handle; a stale one must fail
        FileType type = context.fs().getattr(inode).type();
        requested.retainAll(meaningfulFor(type));
        Set<AccessRight> granted = requested.isEmpty() ? requested : context.fs().access(inode, requested);
        int supported = bitsOf(requested);
        result.body = new ACCESS4resok(supported, bitsOf(granted) & supported);
    }

    /**
     * The rights that mean something for an object of {@code type} (RFC 7530 16.1, RFC 8881 18.1.3): LOOKUP
     * and DELETE only for a directory, EXECUTE for anything else.
     */
    static Set<AccessRight> meaningfulFor(FileType type) {
        return type == FileType.DIRECTORY
                ? EnumSet.of(AccessRight.READ, AccessRight.LOOKUP, AccessRight.MODIFY, AccessRight.EXTEND,
                        AccessRight.DELETE)
                : EnumSet.of(AccessRight.READ, AccessRight.MODIFY, AccessRight.EXTEND, AccessRight.EXECUTE);
    }

    /** The rights whose bits are set in {@code bits}; unknown bits are ignored. */
    static Set<AccessRight> rightsOf(int bits) {
        Set<AccessRight> rights = EnumSet.noneOf(AccessRight.class);
        BITS.forEach((right, bit) -> {
            if ((bits & bit) != 0) {
                rights.add(right);
            }
        });
        return rights;
    }

    /** The wire bits of {@code rights}. */
    static int bitsOf(Set<AccessRight> rights) {
        int bits = 0;
        for (AccessRight right : rights) {
            bits |= BITS.get(right);
        }
        return bits;
    }
}
