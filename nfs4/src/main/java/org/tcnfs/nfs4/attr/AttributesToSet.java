package org.tcnfs.nfs4.attr;

import java.util.Objects;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.xdr.bitmap4;

/**
 * A decoded settable {@code fattr4}: the changes for the file system and the mask of the attributes they
 * set, which is what SETATTR answers as {@code attrsset} and OPEN and CREATE as {@code attrset} once the
 * changes are applied.
 *
 * @param changes what to change
 * @param mask the attributes the client set (a fresh bitmap4, without trailing zero words)
 */
public record AttributesToSet(SetAttributes changes, bitmap4 mask) {
    public AttributesToSet {
        Objects.requireNonNull(changes, "changes");
        Objects.requireNonNull(mask, "mask");
    }
}
