package org.tcnfs.nfs4.ops;

import static org.tcnfs.nfs4.xdr.XdrRoundTrip.decode;
import static org.tcnfs.nfs4.xdr.XdrRoundTrip.encode;

import java.io.IOException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.OperationExecutor;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_fh4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * Runs single operations on one compound context through the real executor. Arguments and results travel
 * through XDR both ways (each decoding must consume every byte), so every run also exercises the codecs of
 * {@code OperationCodecs}. The harnesses differ only in the server and context they run on.
 */
abstract class OpRunner {
    final OperationExecutor executor = OperationExecutor.of(Operations.all());

    /** The compound context the next operation runs in. */
    abstract CompoundContext context();

    /** Runs one operation (arguments {@code null} for operations without) and returns its decoded result. */
    nfs_resop4 run(int opnum, XdrAble args) throws IOException {
        return runRaw(encode(new nfs_argop4(opnum, args)));
    }

    /** Runs an operation decoded from raw XDR bytes (for arguments no Java value can encode). */
    nfs_resop4 runRaw(byte[] xdrOfArgop) throws IOException {
        nfs_argop4 op = decode(xdrOfArgop, new nfs_argop4());
        nfs_resop4 result = executor.execute(context(), op);
        return decode(encode(result), new nfs_resop4());
    }

    /** The status of one operation. */
    NfsStatus status(int opnum, XdrAble args) throws IOException {
        return NfsStatus.of(run(opnum, args).status);
    }

    /** Runs an operation that must succeed and returns its result body. */
    <T> T ok(int opnum, XdrAble args, Class<T> body) throws IOException {
        return body.cast(ok(opnum, args).body);
    }

    /** Runs an operation that must succeed and returns its result. */
    nfs_resop4 ok(int opnum, XdrAble args) throws IOException {
        nfs_resop4 res = run(opnum, args);
        if (res.status != 0) {
            throw new AssertionError(nfs_opnum4.name(opnum) + " failed: " + NfsStatus.nameOf(res.status));
        }
        return res;
    }

    /** PUTFH of {@code inode}, which must succeed. */
    void putfh(Inode inode) throws IOException {
        ok(nfs_opnum4.OP_PUTFH, new PUTFH4args(new nfs_fh4(inode.toBytes())));
    }
}
