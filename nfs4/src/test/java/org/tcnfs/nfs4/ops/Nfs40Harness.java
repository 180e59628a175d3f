package org.tcnfs.nfs4.ops;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundEngine;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.compound.OperationExecutor;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.state.MutableClock;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.CLOSE4args;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.LOCK4args;
import org.tcnfs.nfs4.xdr.LOCKU4args;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.OPEN_CONFIRM4args;
import org.tcnfs.nfs4.xdr.OPEN_CONFIRM4resok;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.READ4args;
import org.tcnfs.nfs4.xdr.RENEW4args;
import org.tcnfs.nfs4.xdr.SETCLIENTID4args;
import org.tcnfs.nfs4.xdr.SETCLIENTID4resok;
import org.tcnfs.nfs4.xdr.SETCLIENTID_CONFIRM4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.cb_client4;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.exist_lock_owner4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.lock_owner4;
import org.tcnfs.nfs4.xdr.locker4;
import org.tcnfs.nfs4.xdr.netaddr4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_client_id4;
import org.tcnfs.nfs4.xdr.nfs_fh4;
import org.tcnfs.nfs4.xdr.nfs_lock_type4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_owner4;
import org.tcnfs.nfs4.xdr.open_to_lock_owner4;
import org.tcnfs.nfs4.xdr.openflag4;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.stateid4;
import org.tcnfs.nfs4.xdr.verifier4;

/**
 * An NFSv4.0 server over an in-memory file system, driven by whole COMPOUNDs (minor version 0, no
 * SEQUENCE) through the real engine with arguments and results passing through XDR, and a clock the test
 * moves. {@link Client} keeps an NFSv4.0 client's id and the next seqid of each of its owners, the way a
 * client does (advancing except after the statuses RFC 7530 9.1.7 exempts).
 */
final class Nfs40Harness implements AutoCloseable {
    static final Duration LEASE = Duration.ofSeconds(90);
    private static final Set<NfsStatus> NOT_SEQUENCED = Set.of(NfsStatus.STALE_CLIENTID, NfsStatus.STALE_STATEID,
            NfsStatus.BAD_STATEID, NfsStatus.BAD_SEQID, NfsStatus.BADXDR, NfsStatus.RESOURCE,
            NfsStatus.NOFILEHANDLE, NfsStatus.MOVED);

    final MutableClock clock = new MutableClock();
    final InMemoryFileSystem fs = new InMemoryFileSystem();
    final StateHandler state;
    final ServerContext server;
    final CompoundEngine engine;

    Nfs40Harness() {
        NfsLimits d = NfsLimits.DEFAULTS;
        NfsLimits limits = new NfsLimits(d.maxOperations(), d.maxRequestBytes(), d.maxResponseBytes(), d.maxRead(),
                d.maxWrite(), d.maxSessionSlots(), LEASE, Duration.ZERO);
        // The background reaper would only see the test clock; tests reap by hand.
        state = StateHandler.builder(limits, clock).reaperInterval(Duration.ofHours(1)).build();
        server = new ServerContext((cred, client) -> fs, state, limits, clock);
        engine = new CompoundEngine(OperationExecutor.of(Operations.all()), List.of(), Set.of(0, 1));
    }

    @Override
    public void close() {
        state.close();
    }

    Inode root() {
        return fs.getRootInode();
    }

    // ------------------------------------------------------------------ compounds

    /** A COMPOUND of minor version 0 as root. */
    COMPOUND4res compound(nfs_argop4... ops) throws IOException {
        return compound(0, Credential.ROOT, ops);
    }

    /** A COMPOUND of any minor version and caller, through XDR both ways. */
    COMPOUND4res compound(int minorVersion, Credential caller, nfs_argop4... ops) throws IOException {
        return compound(context -> { }, minorVersion, caller, ops);
    }

    /**
     * A COMPOUND of minor version 0 as root whose NFSv4.0 OPENs were planned as {@code retransmission} says (as
     * the transaction layer's planner marks them before the compound runs).
     */
    COMPOUND4res plannedCompound(java.util.function.IntPredicate retransmission, nfs_argop4... ops)
            throws IOException {
        return compound(context -> context.planRetransmissions(retransmission), 0, Credential.ROOT, ops);
    }

    private COMPOUND4res compound(java.util.function.Consumer<CompoundContext> prepare, int minorVersion,
            Credential caller, nfs_argop4... ops) throws IOException {
        COMPOUND4args args = new COMPOUND4args();
        args.tag = "nfs40";
        args.minorversion = minorVersion;
        args.argarray = ops;
        COMPOUND4args decoded = new COMPOUND4args();
        decode(encode(args), decoded);
        CompoundContext context = CompoundContext.builder()
                .server(server)
                .minorVersion(minorVersion)
                .credential(caller)
                .clientAddress(InetAddress.getLoopbackAddress())
                .connection(new Object())
                .build();
        prepare.accept(context);
        COMPOUND4res res = engine.process(context, decoded);
        COMPOUND4res back = new COMPOUND4res();
        decode(encode(res), back);
        return back;
    }

    static NfsStatus status(COMPOUND4res res) {
        return NfsStatus.of(res.status);
    }

    /** The result of the last operation run. */
    static nfs_resop4 last(COMPOUND4res res) {
        return res.resarray[res.resarray.length - 1];
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

    // ------------------------------------------------------------------ operations

    static nfs_argop4 op(int opnum, XdrAble args) {
        return new nfs_argop4(opnum, args);
    }

    static nfs_argop4 putfh(Inode inode) {
        return op(nfs_opnum4.OP_PUTFH, new PUTFH4args(new nfs_fh4(inode.toBytes())));
    }

    static nfs_argop4 getfh() {
        return op(nfs_opnum4.OP_GETFH, null);
    }

    static nfs_argop4 setclientid(String id, byte[] verifier) {
        return op(nfs_opnum4.OP_SETCLIENTID, new SETCLIENTID4args(
                new nfs_client_id4(new verifier4(verifier.clone()), bytes(id)),
                new cb_client4(0x40000000, new netaddr4("tcp", "127.0.0.1.3.232")), 1));
    }

    static nfs_argop4 setclientidConfirm(long clientId, byte[] confirm) {
        return op(nfs_opnum4.OP_SETCLIENTID_CONFIRM, new SETCLIENTID_CONFIRM4args(clientId, new verifier4(confirm)));
    }

    static nfs_argop4 renew(long clientId) {
        return op(nfs_opnum4.OP_RENEW, new RENEW4args(clientId));
    }

    static nfs_argop4 read(stateid4 stateid, long offset, int count) {
        return op(nfs_opnum4.OP_READ, new READ4args(stateid, offset, count));
    }

    static nfs_argop4 write(stateid4 stateid, long offset, byte[] data) {
        return op(nfs_opnum4.OP_WRITE, new WRITE4args(stateid, offset, stable_how4.FILE_SYNC4, ByteBuffer.wrap(data)));
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] verifier(int n) {
        return ByteBuffer.allocate(8).putLong(n).array();
    }

    /** A stateid with another seqid. */
    static stateid4 withSeqid(stateid4 id, int seqid) {
        return new stateid4(seqid, id.other.clone());
    }

    // ------------------------------------------------------------------ clients

    /** A confirmed client: SETCLIENTID and SETCLIENTID_CONFIRM as root. */
    Client client(String name) throws IOException {
        return client(name, Credential.ROOT);
    }

    Client client(String name, Credential caller) throws IOException {
        COMPOUND4res set = compound(0, caller, setclientid(name, verifier(1)));
        if (set.status != 0) {
            throw new AssertionError("SETCLIENTID failed: " + NfsStatus.nameOf(set.status));
        }
        SETCLIENTID4resok ok = (SETCLIENTID4resok) set.resarray[0].body;
        COMPOUND4res confirm = compound(0, caller, setclientidConfirm(ok.clientid, ok.setclientid_confirm.value));
        if (confirm.status != 0) {
            throw new AssertionError("SETCLIENTID_CONFIRM failed: " + NfsStatus.nameOf(confirm.status));
        }
        return new Client(ok.clientid, caller);
    }

    /** An NFSv4.0 client: its id and the next seqid of each open and lock owner it used. */
    final class Client {
        final long clientId;
        final Credential caller;
        private final Map<String, Integer> nextSeqid = new HashMap<>();

        Client(long clientId, Credential caller) {
            this.clientId = clientId;
            this.caller = caller;
        }

        /** The seqid the owner's next request carries. */
        int seqid(String owner) {
            return nextSeqid.getOrDefault(owner, 0);
        }

        /** Sends {@code ops} and advances {@code owner}'s seqid as a client would after the last op's status. */
        COMPOUND4res sequenced(String owner, nfs_argop4... ops) throws IOException {
            COMPOUND4res res = compound(0, caller, ops);
            if (res.resarray.length > 0 && !NOT_SEQUENCED.contains(NfsStatus.of(last(res).status))) {
                nextSeqid.merge(owner, 1, Integer::sum);
            }
            return res;
        }

        nfs_argop4 open(String owner, String name, int access, int deny, boolean create) {
            openflag4 how = create ? openflag4.create(createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4()))
                    : openflag4.noCreate();
            return op(nfs_opnum4.OP_OPEN, new OPEN4args(seqid(owner), access, deny,
                    new open_owner4(clientId, bytes(owner)), how, open_claim4.byName(name)));
        }

        /** PUTFH root; OPEN of {@code name} (created if missing), access BOTH, deny NONE; GETFH. */
        COMPOUND4res open(String owner, String name) throws IOException {
            return sequenced(owner, putfh(root()), open(owner, name, OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                    OPEN4args.OPEN4_SHARE_DENY_NONE, true), getfh());
        }

        nfs_argop4 openConfirm(String owner, stateid4 stateid) {
            return op(nfs_opnum4.OP_OPEN_CONFIRM, new OPEN_CONFIRM4args(stateid, seqid(owner)));
        }

        nfs_argop4 close(String owner, stateid4 stateid) {
            return op(nfs_opnum4.OP_CLOSE, new CLOSE4args(seqid(owner), stateid));
        }

        /** OPEN (creating the file) and OPEN_CONFIRM; returns the confirmed open. */
        Opened openConfirmed(String owner, String name) throws IOException {
            COMPOUND4res opened = open(owner, name);
            requireOk(opened, "OPEN");
            OPEN4resok ok = (OPEN4resok) opened.resarray[1].body;
            Inode file = fs.lookup(root(), name);
            stateid4 stateid = ok.stateid;
            if ((ok.rflags & OPEN4resok.OPEN4_RESULT_CONFIRM) != 0) {
                COMPOUND4res confirmed = sequenced(owner, putfh(file), openConfirm(owner, stateid));
                requireOk(confirmed, "OPEN_CONFIRM");
                stateid = ((OPEN_CONFIRM4resok) confirmed.resarray[1].body).open_stateid;
            }
            return new Opened(file, stateid);
        }

        /** LOCK by a lock owner new to the file, sequenced by {@code openOwner}. */
        nfs_argop4 lockNew(String openOwner, stateid4 open, String lockOwner, long offset, long length) {
            return op(nfs_opnum4.OP_LOCK, new LOCK4args(nfs_lock_type4.WRITE_LT, false, offset, length,
                    locker4.newOwner(new open_to_lock_owner4(seqid(openOwner), open, seqid(lockOwner),
                            new lock_owner4(clientId, bytes(lockOwner))))));
        }

        nfs_argop4 lockExisting(String lockOwner, stateid4 lock, long offset, long length) {
            return op(nfs_opnum4.OP_LOCK, new LOCK4args(nfs_lock_type4.WRITE_LT, false, offset, length,
                    locker4.existingOwner(new exist_lock_owner4(lock, seqid(lockOwner)))));
        }

        nfs_argop4 locku(String lockOwner, stateid4 lock, long offset, long length) {
            return op(nfs_opnum4.OP_LOCKU, new LOCKU4args(nfs_lock_type4.WRITE_LT, seqid(lockOwner), lock, offset,
                    length));
        }

        /** Starts the lock owner's own sequence after a granted LOCK through open_to_lock_owner4. */
        void lockOwnerStarted(String lockOwner) {
            nextSeqid.merge(lockOwner, 1, Integer::sum);
        }
    }

    /** A confirmed open: the file and its open stateid. */
    record Opened(Inode file, stateid4 stateid) {
    }

    static void requireOk(COMPOUND4res res, String what) {
        if (res.status != 0) {
            List<String> statuses = new ArrayList<>();
            for (nfs_resop4 r : res.resarray) {
                statuses.add(nfs_opnum4.name(r.resop) + ":" + NfsStatus.nameOf(r.status));
            }
            throw new AssertionError(what + " failed: " + statuses);
        }
    }
}
