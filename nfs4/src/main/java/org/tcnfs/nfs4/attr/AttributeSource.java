package org.tcnfs.nfs4.attr;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.FsStat;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.Stat;

/**
 * What the encoders of one {@code fattr4} read from: the object's {@link Stat}, its handle (resolved only
 * when an attribute needs it), and the file system's capacity (asked for at most once).
 */
final class AttributeSource {
    private final CompoundContext context;
    private final Stat stat;
    private final FileAttributes.InodeSupplier inodeSupplier;
    private final NfsStatus rdattrError;
    private Inode inode;
    private FsStat fsStat;

    AttributeSource(CompoundContext context, Stat stat, FileAttributes.InodeSupplier inode, NfsStatus rdattrError) {
        this.context = context;
        this.stat = stat;
        this.inodeSupplier = inode;
        this.rdattrError = rdattrError;
    }

    CompoundContext context() {
        return context;
    }

    Stat stat() {
        return stat;
    }

    NfsStatus rdattrError() {
        return rdattrError;
    }

    Inode inode() throws IOException {
        if (inode == null) {
            inode = inodeSupplier.get();
        }
        return inode;
    }

    FsStat fsStat() throws IOException {
        if (fsStat == null) {
            fsStat = context.fs().getFsStat(inode());
        }
        return fsStat;
    }
}
