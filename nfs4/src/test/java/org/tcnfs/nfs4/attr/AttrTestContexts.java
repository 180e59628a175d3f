package org.tcnfs.nfs4.attr;

import java.net.InetAddress;
import java.time.Clock;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;

/** Builds a server and compound context over one file system, for the attribute and data-op tests. */
public final class AttrTestContexts {
    private AttrTestContexts() {
    }

    /** A server whose every caller sees {@code fs}. */
    public static ServerContext server(VirtualFileSystem fs, NfsLimits limits) {
        Clock clock = Clock.systemUTC();
        return new ServerContext((credential, client) -> fs, new StateHandler(limits, clock), limits, clock);
    }

    /** A fresh compound context of {@code server} for {@code credential}, minor version 1. */
    public static CompoundContext context(ServerContext server, Credential credential) {
        return context(server, 1, credential);
    }

    /** A fresh compound context of {@code server} for {@code credential}, on its own connection. */
    public static CompoundContext context(ServerContext server, int minorVersion, Credential credential) {
        return CompoundContext.builder()
                .server(server)
                .minorVersion(minorVersion)
                .credential(credential)
                .clientAddress(InetAddress.getLoopbackAddress())
                .connection(new Object())
                .build();
    }
}
