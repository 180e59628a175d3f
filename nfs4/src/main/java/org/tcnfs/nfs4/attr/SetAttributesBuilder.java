package org.tcnfs.nfs4.attr;

import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.TimeChange;

/** Collects the decoded values of a settable {@code fattr4}. */
final class SetAttributesBuilder {
    Integer mode;
    Integer uid;
    Integer gid;
    Long size;
    TimeChange atime;
    TimeChange mtime;

    SetAttributes build() {
        return new SetAttributes(mode, uid, gid, size, atime, mtime);
    }
}
