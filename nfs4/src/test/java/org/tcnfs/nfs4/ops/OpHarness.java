package org.tcnfs.nfs4.ops;

import static org.tcnfs.nfs4.xdr.XdrRoundTrip.decode;
import static org.tcnfs.nfs4.xdr.XdrRoundTrip.encode;

import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.tcnfs.nfs4.attr.AttrTestContexts;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundEngine;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.FileSystemProvider;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.GETFH4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;

/**
 * Runs operations one after the other on one compound context, over an in-memory file system, through the
 * real executor. Arguments and results travel through XDR both ways, so every run also exercises the
 * codecs of {@code OperationCodecs}.
 */
final class OpHarness extends OpRunner {
    final InMemoryFileSystem fs = new InMemoryFileSystem();
    final ServerContext server;
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

    @Override
    CompoundContext context() {
        return context;
    }

    /** Another compound of the same server. */
    CompoundContext newContext(int minorVersion, Credential credential) {
        return AttrTestContexts.context(server, minorVersion, credential);
    }

    void putroot() throws IOException {
        ok(nfs_opnum4.OP_PUTROOTFH, null);
    }

    /** The current file handle, as GETFH returns it. */
    Inode currentHandle() throws IOException {
        return Inode.of(ok(nfs_opnum4.OP_GETFH, null, GETFH4resok.class).object.value);
    }

    /** A directory made by root straight in the file system (mode 0755). */
    Inode mkdir(Inode parent, String name) throws IOException {
        return fs.mkdir(parent, name, Credential.ROOT, 0755);
    }

    /** A regular file made by root straight in the file system (mode 0644). */
    Inode file(Inode parent, String name) throws IOException {
        return fs.create(parent, name, Credential.ROOT, 0644);
    }

    /** A whole COMPOUND through the engine (NFSv4.0 position rules, no SEQUENCE), via XDR both ways. */
    COMPOUND4res compound(int minorVersion, List<nfs_argop4> ops) throws IOException {
        COMPOUND4args args = new COMPOUND4args();
        args.tag = "harness";
        args.minorversion = minorVersion;
        args.argarray = ops.toArray(new nfs_argop4[0]);
        COMPOUND4args decodedArgs = decode(encode(args), new COMPOUND4args());
        CompoundEngine engine = new CompoundEngine(executor, List.of(), Set.of(0, 1));
        COMPOUND4res res = engine.process(newContext(minorVersion, Credential.ROOT), decodedArgs);
        return decode(encode(res), new COMPOUND4res());
    }
}
