package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.status.BadHandleException;
import org.tcnfs.nfs4.status.StaleException;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * PUTFH (RFC 8881 18.19): the given file handle becomes current.
 *
 * <p>The handle is checked eagerly, so that its errors belong to PUTFH as RFC 8881 lists them: a handle
 * longer than 128 bytes does not decode, an empty one is NFS4ERR_BADHANDLE, and otherwise the file
 * system's {@code getattr} judges it: NFS4ERR_BADHANDLE for bytes that cannot be one of its handles,
 * NFS4ERR_STALE for a well-formed handle whose object is gone or unknown (DESIGN.md, Handles).
 * {@code recognizes} is not used: it only routes handles between exports, and says no to a well-formed
 * handle that is merely unknown. A handle that goes stale later in the compound makes the operation that
 * uses it fail with NFS4ERR_STALE.
 *
 * <p>A stale handle of a file that some client still holds open (the file was removed, or renamed over,
 * while open) is accepted, so that its open and lock state can still be closed and unlocked (RFC 8881
 * 18.26.4: a file replaced by RENAME is treated like one removed; an open file's state outlives its name).
 * READ, WRITE, GETATTR and the like then work if the file system kept the file when its last name went
 * ({@code VirtualFileSystem.keepWhileOpen}, asked by REMOVE and RENAME), and fail with NFS4ERR_STALE if not.
 */
public final class OperationPUTFH implements NfsOperation {
    private static final Logger LOG = LoggerFactory.getLogger(OperationPUTFH.class);

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        byte[] handle = ((PUTFH4args) op.args).object.value;
        if (handle == null || handle.length == 0) {
            throw new BadHandleException("empty file handle");
        }
        Inode inode = Inode.of(handle);
        try {
            context.getattr(inode);
        } catch (StaleException e) {
            if (!context.server().state().opens().isOpen(inode)) {
                throw e;
            }
            // removed or renamed over while open: the open's state stays reachable until it is closed
            LOG.debug("PUTFH of {}: the file is gone but still open", inode);
        }
        context.setCurrentInode(inode);
    }
}
