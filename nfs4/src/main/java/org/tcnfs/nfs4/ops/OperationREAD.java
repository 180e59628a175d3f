package org.tcnfs.nfs4.ops;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.state.OpenStateTable.IoMode;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.ReadResult;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.xdr.READ4args;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * READ (RFC 8881 18.22): up to {@code count} bytes of the current file from {@code offset}, at most the
 * server's {@code maxread}, and whether they reach the end of the file. A read at or past the end returns
 * no bytes and eof. A directory is NFS4ERR_ISDIR, another non-regular file NFS4ERR_INVAL; the stateid must
 * allow reading.
 *
 * <p>The buffer is sized to what the file holds, not to what was asked, and goes to the reply as it is
 * (no copy before encoding).
 */
public final class OperationREAD implements NfsOperation {
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    @Override
    public void process(CompoundContext context, nfs_argop4 op, nfs_resop4 result) throws IOException {
        READ4args args = (READ4args) op.args;
        StateId stateId = StateId.of(args.stateid);
        long offset = args.offset;
        long count = Math.min(Integer.toUnsignedLong(args.count), context.server().limits().maxRead());
        Inode inode = context.currentInode();
        Stat stat = context.getattr(inode);
        DataFiles.requireRegular(stat);
        context.server().state().opens().checkIo(context, stateId, inode, IoMode.READ);
        if (offset < 0 || offset >= stat.size()) {
            // offset4 is unsigned: a "negative" offset lies beyond any file
            result.body = new READ4resok(true, EMPTY.duplicate());
            return;
        }
        int wanted = (int) Math.min(count, stat.size() - offset);
        if (wanted == 0) {
            result.body = new READ4resok(false, EMPTY.duplicate());
            return;
        }
        ByteBuffer data = ByteBuffer.allocate(wanted);
        ReadResult read = context.fs().read(inode, offset, data);
        data.flip();
        result.body = new READ4resok(read.eof(), data);
    }
}
