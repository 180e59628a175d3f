package org.tcnfs.nfs4.ops;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.tcnfs.nfs4.attr.AttrTestContexts;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.state.NfsClient;
import org.tcnfs.nfs4.state.NfsSession;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.status.CompleteAlreadyException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.AccessRight;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.CLOSE4args;
import org.tcnfs.nfs4.xdr.LOCK4args;
import org.tcnfs.nfs4.xdr.LOCK4resok;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.exist_lock_owner4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.lock_owner4;
import org.tcnfs.nfs4.xdr.locker4;
import org.tcnfs.nfs4.xdr.nfs_lock_type4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_owner4;
import org.tcnfs.nfs4.xdr.open_to_lock_owner4;
import org.tcnfs.nfs4.xdr.openflag4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * A server over an in-memory file system (behind a view that refuses MODIFY on files without write bits,
 * as a permission-checking view would) and NFSv4.1 clients with sessions, each running operations on its
 * own compound context through the real executor, with arguments and results passing through XDR.
 */
final class StateHarness implements AutoCloseable {
    final InMemoryFileSystem fs = new InMemoryFileSystem();
    final StateHandler state;
    final ServerContext server;

    /** A server without grace period. */
    StateHarness() {
        this(Duration.ZERO);
    }

    StateHarness(Duration grace) {
        NfsLimits d = NfsLimits.DEFAULTS;
        NfsLimits limits = new NfsLimits(d.maxOperations(), d.maxRequestBytes(), d.maxResponseBytes(), d.maxRead(),
                d.maxWrite(), d.maxSessionSlots(), d.lease(), grace);
        Clock clock = Clock.systemUTC();
        state = new StateHandler(limits, clock);
        VirtualFileSystem view = modeChecking(fs);
        server = new ServerContext((cred, client) -> view, state, limits, clock);
    }

    /** A client with a session that has sent RECLAIM_COMPLETE, as clients do before their first OPEN. */
    Client client(long clientId) {
        NfsClient c = new NfsClient(clientId);
        try {
            state.reclaimComplete(c);
        } catch (CompleteAlreadyException e) {
            throw new AssertionError(e);
        }
        return new Client(c);
    }

    /** A client with a session that has not sent RECLAIM_COMPLETE (it may still reclaim). */
    Client reclaimingClient(long clientId) {
        return new Client(new NfsClient(clientId));
    }

    @Override
    public void close() {
        state.close();
    }

    /** An fattr4 setting only the mode. */
    static fattr4 modeAttr(int mode) {
        return new fattr4(new bitmap4(new int[] {0, 1 << (33 - 32)}), ByteBuffer.allocate(4).putInt(mode).array());
    }

    /** An fattr4 setting only the size. */
    static fattr4 sizeAttr(long size) {
        return new fattr4(new bitmap4(new int[] {1 << 4}), ByteBuffer.allocate(8).putLong(size).array());
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** One NFSv4.1 client: its session, and the compound context its operations run in. */
    final class Client extends OpRunner {
        final NfsClient client;
        final NfsSession session;
        CompoundContext context;

        Client(NfsClient client) {
            this.client = client;
            this.session = new NfsSession(client);
            newCompound();
        }

        /** Starts a new compound: no current file handle, no current stateid. */
        void newCompound() {
            context = AttrTestContexts.context(server, Credential.ROOT);
            context.setSession(session);
        }

        @Override
        CompoundContext context() {
            return context;
        }

        Inode current() throws IOException {
            return context.currentInode();
        }

        /** OPEN of {@code name} in the root by {@code owner}, as {@code how} says ({@code null}: no create). */
        nfs_resop4 open(String owner, String name, int access, int deny, createhow4 how) throws IOException {
            putfh(fs.getRootInode());
            openflag4 flag = how == null ? openflag4.noCreate() : openflag4.create(how);
            return run(nfs_opnum4.OP_OPEN, new OPEN4args(0, access, deny,
                    new open_owner4(client.clientId(), bytes(owner)), flag, open_claim4.byName(name)));
        }

        /** OPEN that must succeed; creates the file (UNCHECKED4, no attributes) if missing. */
        OPEN4resok openOk(String owner, String name, int access, int deny) throws IOException {
            nfs_resop4 res = open(owner, name, access, deny,
                    createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4()));
            if (res.status != 0) {
                throw new AssertionError("OPEN failed: " + NfsStatus.nameOf(res.status));
            }
            return (OPEN4resok) res.body;
        }

        NfsStatus close(stateid4 stateid) throws IOException {
            return status(nfs_opnum4.OP_CLOSE, new CLOSE4args(0, stateid));
        }

        /** LOCK by a lock owner new to the file, through {@code open}. */
        nfs_resop4 lockNew(stateid4 open, String lockOwner, int type, long offset, long length) throws IOException {
            return run(nfs_opnum4.OP_LOCK, new LOCK4args(type, false, offset, length, locker4.newOwner(
                    new open_to_lock_owner4(0, open, 0, new lock_owner4(client.clientId(), bytes(lockOwner))))));
        }

        /** LOCK by a lock owner with {@code lock}. */
        nfs_resop4 lockExisting(stateid4 lock, int type, long offset, long length) throws IOException {
            return run(nfs_opnum4.OP_LOCK, new LOCK4args(type, false, offset, length,
                    locker4.existingOwner(new exist_lock_owner4(lock, 0))));
        }

        stateid4 lockNewOk(stateid4 open, String lockOwner, long offset, long length) throws IOException {
            nfs_resop4 res = lockNew(open, lockOwner, nfs_lock_type4.WRITE_LT, offset, length);
            if (res.status != 0) {
                throw new AssertionError("LOCK failed: " + NfsStatus.nameOf(res.status));
            }
            return ((LOCK4resok) res.body).lock_stateid;
        }
    }

    /**
     * {@code fs} with an access check: MODIFY is refused on regular files without any write bit, READ on
     * files without any read bit; everything else is passed through.
     */
    private static VirtualFileSystem modeChecking(VirtualFileSystem fs) {
        return (VirtualFileSystem) Proxy.newProxyInstance(VirtualFileSystem.class.getClassLoader(),
                new Class<?>[] {VirtualFileSystem.class}, (proxy, method, args) -> {
                    if (method.getName().equals("access")) {
                        Stat stat = fs.getattr((Inode) args[0]);
                        @SuppressWarnings("unchecked")
                        Set<AccessRight> requested = (Set<AccessRight>) args[1];
                        Set<AccessRight> granted = requested.isEmpty()
                                ? EnumSet.noneOf(AccessRight.class) : EnumSet.copyOf(requested);
                        if ((stat.mode() & 0222) == 0) {
                            granted.remove(AccessRight.MODIFY);
                        }
                        if ((stat.mode() & 0444) == 0) {
                            granted.remove(AccessRight.READ);
                        }
                        if ((stat.mode() & 0111) == 0) {
                            granted.remove(AccessRight.EXECUTE);
                        }
                        return granted;
                    }
                    try {
                        return method.invoke(fs, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
