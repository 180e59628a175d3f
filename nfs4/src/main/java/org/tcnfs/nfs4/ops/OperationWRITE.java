package org.tcnfs.nfs4.ops;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.tcnfs.nfs4.attr.FileAttributes;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.OpenStateTable.IoMode;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.status.BadXdrException;
import org.tcnfs.nfs4.status.FBigException;
import org.tcnfs.nfs4.vfs.CompoundScope;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.WriteResult;
import org.tcnfs.nfs4.vfs.WriteStability;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.WRITE4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.verifier4;

/**
 * WRITE (RFC 8881 18.32): writes all the bytes given at {@code offset} of the current file, at least as
 * durably as {@code stable} asks, and answers the server's write verifier (it changes with every start,
 * telling the client to resend unstable writes). A write of no bytes changes nothing. A directory is
 * NFS4ERR_ISDIR, another non-regular file NFS4ERR_INVAL; an end beyond {@code maxfilesize} NFS4ERR_FBIG;
 * the stateid must allow writing.
 *
 * <p>The data goes to the file system straight from the request buffer.
 */
public final class OperationWRITE implements NfsOperation {
    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        WRITE4args args = (WRITE4args) op.args;
        StateId stateId = StateId.of(args.stateid);
        WriteStability stability = stabilityOf(args.stable);
        ByteBuffer data = args.data.duplicate();
        long offset = args.offset;
        Inode inode = context.currentInode();
        if (offset < 0 || offset > FileAttributes.MAX_FILE_SIZE - data.remaining()) {
            throw new FBigException("write ends beyond maxfilesize");
        }
        context.server().state().opens().checkIo(context, stateId, inode, IoMode.WRITE);
        verifier4 verifier = new verifier4(context.server().bootVerifier());
        if (data.remaining() == 0) {
            DataFiles.requireRegular(context.fs().getattr(inode));
            result.body = new WRITE4resok(0, stable_how4.FILE_SYNC4, verifier);
            return;
        }
        // the file system refuses directories (ISDIR) and other non-regular files (INVAL) itself; nothing changes until
        // the bytes go out, under the compound's locks: the reads before (the pseudo file system's permission check,
        // the file's resolution) share one stretch of the compound's scope, which a file system that caches ends
        // before it writes, and which ends here at the latest; the one before this operation when the engine offers
        // it (a plain compound: where an OPEN just created the file, the file as the create left it)
        WriteResult written;
        CompoundScope.continueOffered();
        try {
            written = context.fs().write(inode, offset, data, stability);
        } finally {
            CompoundScope.beginChange();
        }
        result.body = new WRITE4resok(written.count(), wireOf(written.committed()), verifier);
    }

    static WriteStability stabilityOf(int stable) throws BadXdrException {
        return switch (stable) {
            case stable_how4.UNSTABLE4 -> WriteStability.UNSTABLE;
            case stable_how4.DATA_SYNC4 -> WriteStability.DATA_SYNC;
            case stable_how4.FILE_SYNC4 -> WriteStability.FILE_SYNC;
            default -> throw new BadXdrException("stable_how4 " + stable);
        };
    }

    static int wireOf(WriteStability stability) {
        return switch (stability) {
            case UNSTABLE -> stable_how4.UNSTABLE4;
            case DATA_SYNC -> stable_how4.DATA_SYNC4;
            case FILE_SYNC -> stable_how4.FILE_SYNC4;
        };
    }
}
