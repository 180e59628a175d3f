package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.attr.AttributesToSet;
import org.tcnfs.nfs4.attr.FileAttributes;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.OpenStateTable.IoMode;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.IsDirException;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.CompoundScope;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.SETATTR4args;
import org.tcnfs.nfs4.xdr.SETATTR4res;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * SETATTR (RFC 8881 18.30): sets attributes of the current file handle, all or none of them.
 *
 * <p>Its result carries {@code attrsset} with every status, so this operation sets the status and body
 * itself: the mask of the attributes set on success, an empty mask on failure. A size change needs a
 * stateid that allows writing (checked by the open state table); on a directory it is NFS4ERR_ISDIR, on
 * other non-regular files NFS4ERR_INVAL.
 */
public final class OperationSETATTR implements NfsOperation {
    private static final Logger LOG = LoggerFactory.getLogger(OperationSETATTR.class);

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        SETATTR4args args = (SETATTR4args) op.args;
        StateId stateId = StateId.of(args.stateid);
        Inode inode = context.currentInode();
        try {
            result.body = new SETATTR4res(apply(context, inode, stateId, args));
        } catch (NfsException e) {
            LOG.debug("SETATTR: {} ({})", e.status(), e.getMessage());
            fail(result, e.status());
        } catch (IOException e) {
            LOG.error("SETATTR failed with an I/O error", e);
            fail(result, NfsStatus.IO);
        }
    }

    private static bitmap4 apply(CompoundContext context, Inode inode, StateId stateId, SETATTR4args args)
            throws IOException {
        AttributesToSet set = FileAttributes.decodeSettableWithMask(context, args.obj_attributes);
        SetAttributes changes = set.changes();
        VirtualFileSystem fs = context.fs();
        // nothing changes until the attributes are set, under the compound's locks: the reads before (the type for a
        // size, the pseudo file system's permission checks, the object's resolution) share one stretch of the
        // compound's scope, which a file system that caches ends before it changes anything, and which ends here at
        // the latest
        CompoundScope.endChange();
        try {
            if (changes.size() != null) {
                FileType type = fs.getattr(inode).type();
                if (type == FileType.DIRECTORY) {
                    throw new IsDirException("size of a directory");
                }
                if (type != FileType.REGULAR) {
                    throw new InvalException("size of a " + type);
                }
                context.server().state().opens().checkIo(context, stateId, inode, IoMode.WRITE);
            }
            if (!changes.isEmpty()) {
                fs.setattr(inode, changes);
            }
        } finally {
            CompoundScope.beginChange();
        }
        return set.mask();
    }

    private static void fail(nfs_resop4 result, NfsStatus status) {
        result.status = status.code();
        result.body = new SETATTR4res(new bitmap4());
    }
}
