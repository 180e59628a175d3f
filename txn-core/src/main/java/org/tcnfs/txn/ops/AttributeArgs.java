package org.tcnfs.txn.ops;

import org.tcnfs.nfs4.attr.Bitmaps;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs4_attr;

/** What the planner reads of an {@code fattr4} argument (SETATTR, CREATE and OPEN create attributes). */
final class AttributeArgs {
    /** {@link #sizeOf}: no size among the attributes. */
    static final long NO_SIZE = -1;
    /** {@link #sizeOf}: a size the operation cannot decode. */
    static final long BAD_SIZE = -2;

    private AttributeArgs() {
    }

    /** The attribute numbers set, ascending. */
    static int[] numbers(fattr4 attrs) {
        if (attrs == null || attrs.attrmask == null || attrs.attrmask.value == null) {
            return new int[0];
        }
        return Bitmaps.toNumbers(attrs.attrmask);
    }

    static boolean hasSize(fattr4 attrs) {
        return attrs != null && attrs.attrmask != null && attrs.attrmask.value != null
                && Bitmaps.isSet(attrs.attrmask, nfs4_attr.FATTR4_SIZE);
    }

    /**
     * The size among {@code attrs}: {@link #NO_SIZE} if there is none, {@link #BAD_SIZE} if the operation
     * cannot decode it. The size (attribute 4) is the first value in {@code attr_vals}: attributes 0 to 3 are
     * read-only, and a mask naming one of them is refused (NFS4ERR_INVAL) before anything is set.
     */
    static long sizeOf(fattr4 attrs) {
        if (!hasSize(attrs)) {
            return NO_SIZE;
        }
        bitmap4 mask = attrs.attrmask;
        if ((mask.value[0] & 0x0f) != 0 || attrs.attr_vals == null || attrs.attr_vals.length < 8) {
            return BAD_SIZE;
        }
        long size = 0;
        for (int b = 0; b < 8; b++) {
            size = (size << 8) | (attrs.attr_vals[b] & 0xff);
        }
        return size < 0 ? BAD_SIZE : size;
    }
}
