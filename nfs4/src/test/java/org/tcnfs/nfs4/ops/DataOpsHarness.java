package org.tcnfs.nfs4.ops;

import org.tcnfs.nfs4.attr.AttrTestContexts;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * Runs single operations of the data and attribute area against an in-memory file system through the real
 * executor ({@link OpRunner}: arguments and results through XDR, as a client would see them), on a context
 * whose current file handle the test sets directly.
 */
final class DataOpsHarness extends OpRunner {
    final InMemoryFileSystem fs;
    final ServerContext server;
    final CompoundContext context;

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

    @Override
    CompoundContext context() {
        return context;
    }

    /** Makes {@code inode} the current file handle. */
    DataOpsHarness at(Inode inode) {
        context.setCurrentInode(inode);
        return this;
    }

    static NfsStatus statusOf(nfs_resop4 result) {
        return NfsStatus.of(result.status);
    }
}
