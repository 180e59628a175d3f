package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.tcnfs.nfs4.attr.AttrTestContexts;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.compound.OperationExecutor;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * Runs single operations of the data and attribute area against an in-memory file system through the real
 * executor, and passes every result through XDR (encode, decode) as a client would see it.
 */
final class DataOpsHarness {
    final InMemoryFileSystem fs;
    final ServerContext server;
    final CompoundContext context;
    private final OperationExecutor executor = OperationExecutor.of(Operations.all());

    DataOpsHarness() {
        this(NfsLimits.DEFAULTS);
    }

    DataOpsHarness(NfsLimits limits) {
        fs = new InMemoryFileSystem();
        server = AttrTestContexts.server(fs, limits);
        context = AttrTestContexts.context(server, Credential.ROOT);
    }

    /** Operations see {@code view} (a wrapper of {@code fs}); tests prepare {@code fs} directly. */
    DataOpsHarness(InMemoryFileSystem fs, VirtualFileSystem view) {
        this.fs = fs;
        server = AttrTestContexts.server(view, NfsLimits.DEFAULTS);
        context = AttrTestContexts.context(server, Credential.ROOT);
    }

    /** Makes {@code inode} the current file handle. */
    DataOpsHarness at(Inode inode) {
        context.setCurrentInode(inode);
        return this;
    }

    /** Runs one operation; the result is the client's view (encoded and decoded again). */
    nfs_resop4 run(int opcode, XdrAble args) throws IOException {
        nfs_resop4 result = executor.execute(context, new nfs_argop4(opcode, wire(opcode, args)));
        Xdr xdr = new Xdr(1 << 16);
        xdr.beginEncoding();
        result.xdrEncode(xdr);
        xdr.endEncoding();
        xdr.beginDecoding();
        nfs_resop4 decoded = new nfs_resop4();
        decoded.xdrDecode(xdr);
        return decoded;
    }

    /** The arguments as the server decodes them from the wire. */
    private static XdrAble wire(int opcode, XdrAble args) throws IOException {
        if (args == null) {
            return null;
        }
        Xdr xdr = new Xdr(1 << 16);
        xdr.beginEncoding();
        xdr.xdrEncodeInt(opcode);
        args.xdrEncode(xdr);
        xdr.endEncoding();
        xdr.beginDecoding();
        nfs_argop4 decoded = new nfs_argop4();
        decoded.xdrDecode(xdr);
        return decoded.args;
    }

    static NfsStatus statusOf(nfs_resop4 result) {
        return NfsStatus.of(result.status);
    }
}
