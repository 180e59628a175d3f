package org.tcnfs.nfs4.ops;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundEngine;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.compound.OperationExecutor;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.FileSystemProvider;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_fh4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * Runs operations one after the other on one compound context, over an in-memory file system, through the
 * real executor. Arguments and results travel through XDR both ways, so every run also exercises the
 * codecs of {@code OperationCodecs}.
 */
final class OpHarness {
    final InMemoryFileSystem fs = new InMemoryFileSystem();
    final ServerContext server;
    final OperationExecutor executor = OperationExecutor.of(Operations.all());
    final CompoundContext context;

    OpHarness(int minorVersion) {
        this(minorVersion, Credential.ROOT);
    }

    OpHarness(int minorVersion, Credential credential) {
        this(minorVersion, credential, fs -> (cred, client) -> fs);
    }

    /** A harness whose callers see what {@code provider} makes of {@link #fs} (exports, permission checks). */
    OpHarness(int minorVersion, Credential credential, Function<InMemoryFileSystem, FileSystemProvider> provider) {
        NfsLimits limits = NfsLimits.DEFAULTS;
        Clock clock = Clock.systemUTC();
        server = new ServerContext(provider.apply(fs), new StateHandler(limits, clock), limits, clock);
        context = newContext(minorVersion, credential);
    }

    /** Another compound of the same server. */
    CompoundContext newContext(int minorVersion, Credential credential) {
        return CompoundContext.builder()
                .server(server)
                .minorVersion(minorVersion)
                .credential(credential)
                .clientAddress(InetAddress.getLoopbackAddress())
                .connection(new Object())
                .build();
    }

    /** Runs one operation (arguments {@code null} for operations without) and returns its decoded result. */
    nfs_resop4 run(int opnum, XdrAble args) throws IOException {
        nfs_argop4 decoded = new nfs_argop4();
        decode(encode(new nfs_argop4(opnum, args)), decoded);
        return runDecoded(decoded);
    }

    /** Runs an operation decoded from raw XDR bytes (for arguments no Java value can encode). */
    nfs_resop4 runRaw(byte[] xdrOfArgop) throws IOException {
        nfs_argop4 decoded = new nfs_argop4();
        decode(xdrOfArgop, decoded);
        return runDecoded(decoded);
    }

    private nfs_resop4 runDecoded(nfs_argop4 op) throws IOException {
        nfs_resop4 result = executor.execute(context, op);
        nfs_resop4 back = new nfs_resop4();
        decode(encode(result), back);
        return back;
    }

    /** The status of one operation. */
    NfsStatus status(int opnum, XdrAble args) throws IOException {
        return NfsStatus.of(run(opnum, args).status);
    }

    /** Runs an operation that must succeed and returns its result body. */
    <T> T ok(int opnum, XdrAble args, Class<T> body) throws IOException {
        nfs_resop4 res = run(opnum, args);
        if (res.status != 0) {
            throw new AssertionError(nfs_opnum4.name(opnum) + " failed: " + NfsStatus.nameOf(res.status));
        }
        return body.cast(res.body);
    }

    /** Runs an operation without a result body that must succeed. */
    void ok(int opnum, XdrAble args) throws IOException {
        nfs_resop4 res = run(opnum, args);
        if (res.status != 0) {
            throw new AssertionError(nfs_opnum4.name(opnum) + " failed: " + NfsStatus.nameOf(res.status));
        }
    }

    void putfh(Inode inode) throws IOException {
        ok(nfs_opnum4.OP_PUTFH, new PUTFH4args(new nfs_fh4(inode.toBytes())));
    }

    void putroot() throws IOException {
        ok(nfs_opnum4.OP_PUTROOTFH, null);
    }

    /** A whole COMPOUND through the engine (NFSv4.0 position rules, no SEQUENCE), via XDR both ways. */
    COMPOUND4res compound(int minorVersion, List<nfs_argop4> ops) throws IOException {
        COMPOUND4args args = new COMPOUND4args();
        args.tag = "harness";
        args.minorversion = minorVersion;
        args.argarray = ops.toArray(new nfs_argop4[0]);
        COMPOUND4args decodedArgs = new COMPOUND4args();
        decode(encode(args), decodedArgs);
        CompoundEngine engine = new CompoundEngine(executor, List.of(), Set.of(0, 1));
        COMPOUND4res res = engine.process(newContext(minorVersion, Credential.ROOT), decodedArgs);
        COMPOUND4res back = new COMPOUND4res();
        decode(encode(res), back);
        return back;
    }

    static byte[] encode(XdrAble value) throws IOException {
        Xdr xdr = new Xdr(1024);
        xdr.beginEncoding();
        value.xdrEncode(xdr);
        xdr.endEncoding();
        byte[] bytes = new byte[xdr.asBuffer().remaining()];
        xdr.asBuffer().get(bytes);
        return bytes;
    }

    static void decode(byte[] bytes, XdrAble into) throws IOException {
        Xdr xdr = new Xdr(bytes);
        xdr.beginDecoding();
        into.xdrDecode(xdr);
        xdr.endDecoding();
    }
}
