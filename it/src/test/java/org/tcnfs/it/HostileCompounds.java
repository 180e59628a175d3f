package org.tcnfs.it;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;
import org.tcnfs.client.Attrs;
import org.tcnfs.nfs4.xdr.ACCESS4args;
import org.tcnfs.nfs4.xdr.BACKCHANNEL_CTL4args;
import org.tcnfs.nfs4.xdr.BIND_CONN_TO_SESSION4args;
import org.tcnfs.nfs4.xdr.CLOSE4args;
import org.tcnfs.nfs4.xdr.COMMIT4args;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.CREATE4args;
import org.tcnfs.nfs4.xdr.DELEGRETURN4args;
import org.tcnfs.nfs4.xdr.DESTROY_CLIENTID4args;
import org.tcnfs.nfs4.xdr.DESTROY_SESSION4args;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4args;
import org.tcnfs.nfs4.xdr.FREE_STATEID4args;
import org.tcnfs.nfs4.xdr.GETATTR4args;
import org.tcnfs.nfs4.xdr.LINK4args;
import org.tcnfs.nfs4.xdr.LOCK4args;
import org.tcnfs.nfs4.xdr.LOCKT4args;
import org.tcnfs.nfs4.xdr.LOCKU4args;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.NVERIFY4args;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN_CONFIRM4args;
import org.tcnfs.nfs4.xdr.OPEN_DOWNGRADE4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.READ4args;
import org.tcnfs.nfs4.xdr.READDIR4args;
import org.tcnfs.nfs4.xdr.RECLAIM_COMPLETE4args;
import org.tcnfs.nfs4.xdr.RELEASE_LOCKOWNER4args;
import org.tcnfs.nfs4.xdr.REMOVE4args;
import org.tcnfs.nfs4.xdr.RENAME4args;
import org.tcnfs.nfs4.xdr.RENEW4args;
import org.tcnfs.nfs4.xdr.SECINFO4args;
import org.tcnfs.nfs4.xdr.SECINFO_NO_NAME4args;
import org.tcnfs.nfs4.xdr.SEQUENCE4args;
import org.tcnfs.nfs4.xdr.SETATTR4args;
import org.tcnfs.nfs4.xdr.SETCLIENTID4args;
import org.tcnfs.nfs4.xdr.SETCLIENTID_CONFIRM4args;
import org.tcnfs.nfs4.xdr.TEST_STATEID4args;
import org.tcnfs.nfs4.xdr.VERIFY4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.XdrSupport;
import org.tcnfs.nfs4.xdr.callback_sec_parms4;
import org.tcnfs.nfs4.xdr.cb_client4;
import org.tcnfs.nfs4.xdr.client_owner4;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.createtype4;
import org.tcnfs.nfs4.xdr.exist_lock_owner4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.locker4;
import org.tcnfs.nfs4.xdr.lock_owner4;
import org.tcnfs.nfs4.xdr.netaddr4;
import org.tcnfs.nfs4.xdr.nfs4_attr;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_client_id4;
import org.tcnfs.nfs4.xdr.nfs_fh4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.nfs4.xdr.open_claim4;
import org.tcnfs.nfs4.xdr.open_claim_delegate_cur4;
import org.tcnfs.nfs4.xdr.open_claim_type4;
import org.tcnfs.nfs4.xdr.open_owner4;
import org.tcnfs.nfs4.xdr.open_to_lock_owner4;
import org.tcnfs.nfs4.xdr.openflag4;
import org.tcnfs.nfs4.xdr.sessionid4;
import org.tcnfs.nfs4.xdr.specdata4;
import org.tcnfs.nfs4.xdr.stateid4;
import org.tcnfs.nfs4.xdr.verifier4;

/**
 * Seeded random COMPOUNDs that are well-formed XDR with hostile content, for {@link OperationFuzzIT}: every
 * NFSv4.0/4.1 operation (and unknown and NFSv4.2 numbers) with typed arguments drawn from pools of what the
 * server handed out earlier ({@link Pools}: file handles and stateids harvested from replies, of this client and
 * of others) and of forgeries: stale, random and empty handles; special, forged, old and foreign stateids; names
 * empty, {@code .}, {@code ..}, with {@code /} or NUL, not UTF-8, of 255 and 256 bytes; offsets and lengths at
 * 2^63-1 and 2^64-1 whose sums overflow; attribute masks with unknown and read-only bits; every claim type, create
 * mode and share access/deny pair; SEQUENCE slots out of range.
 *
 * <p>Everything comes from one {@link Random}; not thread-safe.
 */
final class HostileCompounds {
    /** Names a fuzzed compound may create; the export can hold no others (besides the set-up tree). */
    static final List<String> CREATABLE = List.of("a", "b", "c", "d", "\u00e9t\u00e9", "x".repeat(255),
            "\u00e9".repeat(127) + "x", ".tcnfs");

    /** The note of a compound whose first operation is not the sender's own SEQUENCE. */
    static final String NO_SEQUENCE = "no SEQUENCE first";

    private static final byte[][] HOSTILE_NAMES = {
        new byte[0], bytes("."), bytes(".."), bytes("a/b"), bytes("/"), bytes("a\0b"), new byte[] {0},
        {(byte) 0xff}, {(byte) 0xc0, (byte) 0xaf}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {'a', (byte) 0xe2},
        bytes("n".repeat(256)), bytes("n".repeat(1024)), bytes("\u00e9".repeat(128)),
    };

    private static final long[] OFFSETS = {0, 1, 4095, 4096, 1L << 20, Integer.MAX_VALUE, 1L << 32, 1L << 40,
        Long.MAX_VALUE, Long.MAX_VALUE - 1, -1L, -2L, Long.MIN_VALUE};
    private static final long[] LENGTHS = {0, 1, 4096, -1L, Long.MAX_VALUE, Long.MIN_VALUE, 2, 1L << 32};
    private static final int[] COUNTS = {0, 1, 4096, 1 << 20, (1 << 20) + 1, Integer.MAX_VALUE, -1, 8};

    /** Opcodes the generator draws from: everything of RFC 7530/8881, NFSv4.2 ones, unknown ones. */
    private static final int[] OPS = {
        OP_ACCESS, OP_CLOSE, OP_COMMIT, OP_CREATE, OP_DELEGPURGE, OP_DELEGRETURN, OP_GETATTR, OP_GETFH, OP_LINK,
        OP_LOCK, OP_LOCKT, OP_LOCKU, OP_LOOKUP, OP_LOOKUPP, OP_NVERIFY, OP_OPEN, OP_OPENATTR, OP_OPEN_CONFIRM,
        OP_OPEN_DOWNGRADE, OP_PUTFH, OP_PUTPUBFH, OP_PUTROOTFH, OP_READ, OP_READDIR, OP_READLINK, OP_REMOVE,
        OP_RENAME, OP_RENEW, OP_RESTOREFH, OP_SAVEFH, OP_SECINFO, OP_SETATTR, OP_SETCLIENTID,
        OP_SETCLIENTID_CONFIRM, OP_VERIFY, OP_WRITE, OP_RELEASE_LOCKOWNER, OP_BACKCHANNEL_CTL,
        OP_BIND_CONN_TO_SESSION, OP_EXCHANGE_ID, OP_CREATE_SESSION, OP_DESTROY_SESSION, OP_FREE_STATEID,
        OP_GET_DIR_DELEGATION, OP_GETDEVICEINFO, OP_LAYOUTGET, OP_SECINFO_NO_NAME, OP_SEQUENCE, OP_SET_SSV,
        OP_TEST_STATEID, OP_WANT_DELEGATION, OP_DESTROY_CLIENTID, OP_RECLAIM_COMPLETE, OP_ALLOCATE, OP_COPY,
        OP_SEEK, OP_CLONE, OP_ILLEGAL, 0, 1, 2, 72, 9999,
    };
    /** Operations that work on the file system, drawn more often. */
    private static final int[] FS_OPS = {
        OP_PUTFH, OP_PUTFH, OP_LOOKUP, OP_GETFH, OP_GETATTR, OP_SETATTR, OP_OPEN, OP_OPEN, OP_CLOSE, OP_READ,
        OP_WRITE, OP_WRITE, OP_CREATE, OP_REMOVE, OP_RENAME, OP_LINK, OP_SAVEFH, OP_RESTOREFH, OP_LOCK, OP_LOCKU,
        OP_LOCKT, OP_READDIR, OP_COMMIT, OP_LOOKUPP, OP_VERIFY, OP_NVERIFY, OP_ACCESS, OP_READLINK,
        OP_OPEN_DOWNGRADE, OP_TEST_STATEID, OP_FREE_STATEID,
    };

    /**
     * What the generator draws from: handles and stateids seen in replies (bounded), and the identities of the
     * fuzzer's own clients and sessions.
     */
    static final class Pools {
        static final int MAX = 96;
        final List<byte[]> handles = new ArrayList<>();
        final List<stateid4> stateids = new ArrayList<>();
        final List<byte[]> sessionIds = new ArrayList<>();
        final List<Long> clientIds = new ArrayList<>();
        final List<byte[]> owners = new ArrayList<>();
        /** The directory the fuzzed compounds mostly start in. */
        byte[] home;

        void addHandle(Random random, byte[] fh) {
            add(random, handles, fh.clone());
        }

        void addStateid(Random random, stateid4 s) {
            add(random, stateids, new stateid4(s.seqid, s.other.clone()));
        }

        private static <T> void add(Random random, List<T> list, T value) {
            if (list.size() < MAX) {
                list.add(value);
            } else {
                list.set(random.nextInt(list.size()), value);
            }
        }
    }

    /** Who sends the compound: the minor version, and for 4.1 the session and slot state it uses. */
    record Sender(int minorVersion, byte[] sessionId, int slot, int sequenceId, int slots, long clientId) {
    }

    /** A generated compound and what the checks must know about it. */
    record Fuzzed(COMPOUND4args args, boolean transactional, boolean hostileSequence, List<String> notes,
            java.util.Set<Integer> badEnumAt) {
    }

    private final Random random;
    private final Pools pools;
    /** Whether the operation being generated holds an enum value outside its type (XDR-invalid: BADXDR is fair). */
    private boolean badEnum;

    HostileCompounds(Random random, Pools pools) {
        this.random = random;
        this.pools = pools;
    }

    /** One compound for {@code sender}. */
    Fuzzed next(Sender sender) {
        List<String> notes = new ArrayList<>();
        List<nfs_argop4> ops = new ArrayList<>();
        boolean hostileSequence = false;
        int minor = sender.minorVersion();
        if (minor == 1) {
            if (random.nextInt(25) == 0) {
                notes.add(NO_SEQUENCE); // a random operation may still be a SEQUENCE, of any session
            } else {
                SEQUENCE4args seq = new SEQUENCE4args();
                seq.sa_sessionid = new sessionid4(sender.sessionId().clone());
                seq.sa_slotid = sender.slot();
                seq.sa_sequenceid = sender.sequenceId();
                seq.sa_highest_slotid = sender.slots() - 1;
                seq.sa_cachethis = random.nextBoolean();
                if (random.nextInt(12) == 0) {
                    hostileSequence = true;
                    switch (random.nextInt(8)) {
                        case 0 -> seq.sa_slotid = sender.slots();
                        case 1 -> seq.sa_slotid = -1;
                        case 2 -> seq.sa_sequenceid = sender.sequenceId() + 1 + random.nextInt(3);
                        case 3 -> seq.sa_sequenceid = sender.sequenceId() - 1;
                        case 4 -> seq.sa_sessionid = new sessionid4(randomBytes(16));
                        case 5 -> seq.sa_sessionid = new sessionid4(pick(pools.sessionIds).clone());
                        case 6 -> seq.sa_highest_slotid = -1;
                        default -> seq.sa_sequenceid = 0;
                    }
                    notes.add("hostile SEQUENCE slot " + seq.sa_slotid + " seq " + seq.sa_sequenceid
                            + " highest " + seq.sa_highest_slotid);
                }
                ops.add(new nfs_argop4(OP_SEQUENCE, seq));
            }
        }
        if (random.nextInt(5) != 0) {
            ops.add(random.nextInt(8) == 0 ? new nfs_argop4(OP_PUTROOTFH, null)
                    : new nfs_argop4(OP_PUTFH, new PUTFH4args(new nfs_fh4(pools.home.clone()))));
        }
        boolean scenario = random.nextBoolean();
        if (scenario) {
            scenario(ops, sender);
        }
        int n = (scenario ? 0 : 1) + random.nextInt(random.nextInt(10) == 0 ? 40 : scenario ? 3 : 8);
        java.util.Set<Integer> badEnumAt = new java.util.HashSet<>();
        for (int i = 0; i < n; i++) {
            int op = random.nextInt(4) == 0 ? OPS[random.nextInt(OPS.length)] : FS_OPS[random.nextInt(FS_OPS.length)];
            badEnum = false;
            ops.add(op(op, sender));
            if (badEnum) {
                badEnumAt.add(ops.size() - 1);
            }
        }
        COMPOUND4args args = new COMPOUND4args();
        args.tag = "fuzz";
        args.minorversion = minor;
        args.argarray = ops.toArray(new nfs_argop4[0]);
        boolean txn = random.nextInt(3) == 0;
        return new Fuzzed(args, txn, hostileSequence, notes, badEnumAt);
    }

    private nfs_argop4 op(int op, Sender sender) {
        XdrAble args = switch (op) {
            case OP_ACCESS -> new ACCESS4args(random.nextInt(4) == 0 ? random.nextInt() : random.nextInt(64));
            case OP_CLOSE -> new CLOSE4args(seqid(), stateid());
            case OP_COMMIT -> new COMMIT4args(offset(), count());
            case OP_CREATE -> create();
            case OP_DELEGPURGE -> new RENEW4args(clientId(sender)); // clientid4, same shape as RENEW's
            case OP_DELEGRETURN -> new DELEGRETURN4args(stateid());
            case OP_GETATTR -> new GETATTR4args(mask());
            case OP_LINK, OP_LOOKUP, OP_REMOVE, OP_SECINFO -> nameArgs(op);
            case OP_LOCK -> lock(sender);
            case OP_LOCKT -> new LOCKT4args(lockType(), offset(), length(), new lock_owner4(clientId(sender), owner()));
            case OP_LOCKU -> new LOCKU4args(lockType(), seqid(), stateid(), offset(), length());
            case OP_NVERIFY -> new NVERIFY4args(attributes());
            case OP_VERIFY -> new VERIFY4args(attributes());
            case OP_OPEN -> open(sender);
            case OP_OPEN_CONFIRM -> new OPEN_CONFIRM4args(stateid(), seqid());
            case OP_OPEN_DOWNGRADE -> new OPEN_DOWNGRADE4args(stateid(), seqid(), shareAccess(), shareDeny());
            case OP_PUTFH -> new PUTFH4args(new nfs_fh4(handle()));
            case OP_READ -> new READ4args(stateid(), offset(), count());
            case OP_READDIR -> new READDIR4args(random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(4),
                    new verifier4(random.nextBoolean() ? new byte[8] : randomBytes(8)), count(), count(), mask());
            case OP_RENAME -> rename();
            case OP_RENEW -> new RENEW4args(clientId(sender));
            case OP_SETATTR -> new SETATTR4args(stateid(), attributes());
            case OP_SETCLIENTID -> new SETCLIENTID4args(new nfs_client_id4(new verifier4(randomBytes(8)),
                    random.nextBoolean() ? owner() : new byte[0]),
                    new cb_client4(random.nextInt(), new netaddr4(random.nextBoolean() ? "tcp" : "",
                            random.nextBoolean() ? "127.0.0.1.8.1" : "x")), random.nextInt());
            case OP_SETCLIENTID_CONFIRM -> new SETCLIENTID_CONFIRM4args(clientId(sender),
                    new verifier4(randomBytes(8)));
            case OP_WRITE -> new WRITE4args(stateid(), offset(), enumValue(3, 1),
                    ByteBuffer.wrap(randomBytes(random.nextInt(8) == 0 ? 70_000 : random.nextInt(64))));
            case OP_RELEASE_LOCKOWNER -> new RELEASE_LOCKOWNER4args(new lock_owner4(clientId(sender), owner()));
            case OP_BACKCHANNEL_CTL -> {
                BACKCHANNEL_CTL4args a = new BACKCHANNEL_CTL4args();
                a.bca_cb_program = random.nextInt();
                callback_sec_parms4 none = new callback_sec_parms4();
                none.cb_secflavor = callback_sec_parms4.AUTH_NONE;
                a.bca_sec_parms = new callback_sec_parms4[] {none};
                yield a;
            }
            case OP_BIND_CONN_TO_SESSION -> {
                BIND_CONN_TO_SESSION4args a = new BIND_CONN_TO_SESSION4args();
                a.bctsa_sessid = new sessionid4(sessionId());
                a.bctsa_dir = random.nextInt(8);
                badEnum |= a.bctsa_dir == 0 || a.bctsa_dir > 3 && a.bctsa_dir != 7;
                a.bctsa_use_conn_in_rdma_mode = random.nextBoolean();
                yield a;
            }
            case OP_EXCHANGE_ID -> {
                EXCHANGE_ID4args a = new EXCHANGE_ID4args();
                a.eia_clientowner = new client_owner4(new verifier4(randomBytes(8)), owner());
                a.eia_flags = random.nextBoolean() ? 0 : random.nextInt();
                yield a;
            }
            case OP_DESTROY_SESSION -> {
                DESTROY_SESSION4args a = new DESTROY_SESSION4args();
                a.dsa_sessionid = new sessionid4(random.nextInt(6) == 0 ? pick(pools.sessionIds).clone()
                        : randomBytes(16));
                yield a;
            }
            case OP_CREATE_SESSION -> {
                org.tcnfs.nfs4.xdr.CREATE_SESSION4args a = new org.tcnfs.nfs4.xdr.CREATE_SESSION4args();
                a.csa_clientid = clientId(sender);
                a.csa_sequence = random.nextInt(3) == 0 ? random.nextInt() : random.nextInt(4);
                a.csa_flags = random.nextInt(8);
                a.csa_fore_chan_attrs = channel();
                a.csa_back_chan_attrs = channel();
                a.csa_cb_program = random.nextInt();
                callback_sec_parms4 none = new callback_sec_parms4();
                none.cb_secflavor = callback_sec_parms4.AUTH_NONE;
                a.csa_sec_parms = random.nextBoolean() ? new callback_sec_parms4[] {none} : new callback_sec_parms4[0];
                yield a;
            }
            case OP_FREE_STATEID -> new FREE_STATEID4args(stateid());
            case OP_SECINFO_NO_NAME -> new SECINFO_NO_NAME4args(enumValue(2, 0));
            case OP_TEST_STATEID -> {
                stateid4[] ids = new stateid4[random.nextInt(5)];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = stateid();
                }
                yield new TEST_STATEID4args(ids);
            }
            case OP_DESTROY_CLIENTID -> {
                DESTROY_CLIENTID4args a = new DESTROY_CLIENTID4args();
                a.dca_clientid = random.nextInt(8) == 0 ? clientId(sender) : random.nextLong();
                yield a;
            }
            case OP_RECLAIM_COMPLETE -> {
                RECLAIM_COMPLETE4args a = new RECLAIM_COMPLETE4args();
                a.rca_one_fs = random.nextBoolean();
                yield a;
            }
            case OP_GETFH, OP_LOOKUPP, OP_PUTPUBFH, OP_PUTROOTFH, OP_READLINK, OP_RESTOREFH, OP_SAVEFH,
                    OP_OPENATTR -> openattrOrNothing(op);
            // CREATE_SESSION would be dropped from the pools' view; SEQUENCE in the middle; 4.2 and unknown
            // numbers: arguments of some other shape (the server must not decode past an unknown number)
            case OP_SEQUENCE -> {
                SEQUENCE4args seq = new SEQUENCE4args();
                seq.sa_sessionid = new sessionid4(sessionId());
                seq.sa_sequenceid = random.nextInt(4);
                seq.sa_slotid = random.nextInt(4);
                yield seq;
            }
            default -> null;
        };
        return new nfs_argop4(op, args);
    }

    private org.tcnfs.nfs4.xdr.channel_attrs4 channel() {
        org.tcnfs.nfs4.xdr.channel_attrs4 c = new org.tcnfs.nfs4.xdr.channel_attrs4();
        c.ca_headerpadsize = random.nextInt(3) == 0 ? random.nextInt() : 0;
        c.ca_maxrequestsize = count();
        c.ca_maxresponsesize = count();
        c.ca_maxresponsesize_cached = count();
        c.ca_maxoperations = count();
        c.ca_maxrequests = random.nextInt(3) == 0 ? random.nextInt() : random.nextInt(2000);
        c.ca_rdma_ird = random.nextInt(6) == 0 ? new int[] {random.nextInt()} : new int[0];
        return c;
    }

    /**
     * A run of operations that mostly succeed, so that the compound gets deep and makes real state (files, opens,
     * locks, names) for the hostile operations after it: open or create and write, lock and unlock, read and
     * change attributes, rename and link between the home directory and others.
     */
    private void scenario(List<nfs_argop4> ops, Sender sender) {
        stateid4 current = new stateid4(1, new byte[12]);
        String name = CREATABLE.get(random.nextInt(4));
        byte[] owner = pick(pools.owners).clone();
        int shape = random.nextInt(10);
        if (shape >= 5) {
            outsideShape(ops, sender, shape - 5, name, owner);
            return;
        }
        switch (shape) {
            case 0, 1 -> {
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(new nfs_fh4(pools.home.clone()))));
                openflag4 how = random.nextBoolean() ? openflag4.noCreate() : openflag4.create(createhow4.withAttributes(
                        random.nextBoolean() ? createmode4.UNCHECKED4 : createmode4.GUARDED4, attributes()));
                ops.add(new nfs_argop4(OP_OPEN, new OPEN4args(sender.minorVersion() == 0 ? seqid() : 0,
                        1 + random.nextInt(3), random.nextInt(4) == 0 ? random.nextInt(4) : 0,
                        new open_owner4(sender.clientId(), owner), how, open_claim4.byName(name))));
                ops.add(new nfs_argop4(OP_GETFH, null));
                stateid4 use = sender.minorVersion() == 1 ? current : stateid();
                if (random.nextBoolean()) {
                    ops.add(new nfs_argop4(OP_WRITE, new WRITE4args(use, random.nextInt(3) == 0 ? offset()
                            : random.nextInt(9000), random.nextInt(3), ByteBuffer.wrap(randomBytes(random.nextInt(5000))))));
                }
                if (random.nextBoolean()) {
                    ops.add(new nfs_argop4(OP_LOCK, new LOCK4args(1 + random.nextInt(2), false,
                            random.nextInt(3) == 0 ? offset() : random.nextInt(100),
                            random.nextInt(3) == 0 ? length() : 1 + random.nextInt(100),
                            locker4.newOwner(new open_to_lock_owner4(0, use, 0,
                                    new lock_owner4(sender.clientId(), pick(pools.owners).clone()))))));
                    if (random.nextBoolean()) {
                        ops.add(new nfs_argop4(OP_LOCKU, new LOCKU4args(1, 0, current, offset(), length())));
                    }
                }
                if (random.nextInt(3) == 0) {
                    ops.add(new nfs_argop4(OP_SETATTR, new SETATTR4args(use, attributes())));
                }
                if (random.nextBoolean()) {
                    ops.add(new nfs_argop4(OP_CLOSE, new CLOSE4args(0, use)));
                }
            }
            case 2 -> {
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(new nfs_fh4(handle()))));
                ops.add(new nfs_argop4(OP_READ, new READ4args(stateid(), random.nextInt(3) == 0 ? offset()
                        : random.nextInt(9000), count())));
                ops.add(new nfs_argop4(OP_SETATTR, new SETATTR4args(stateid(), attributes())));
                ops.add(new nfs_argop4(OP_GETATTR, new GETATTR4args(mask())));
            }
            case 3 -> {
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(new nfs_fh4(pools.home.clone()))));
                ops.add(new nfs_argop4(OP_SAVEFH, null));
                if (random.nextBoolean()) {
                    ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(new nfs_fh4(handle()))));
                }
                ops.add(random.nextBoolean() ? op(OP_RENAME, sender) : new nfs_argop4(OP_RENAME,
                        new RENAME4args(name, CREATABLE.get(random.nextInt(4)))));
            }
            default -> {
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(new nfs_fh4(handle()))));
                ops.add(new nfs_argop4(OP_SAVEFH, null));
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(new nfs_fh4(pools.home.clone()))));
                ops.add(random.nextBoolean() ? op(OP_LINK, sender) : op(OP_CREATE, sender));
                ops.add(op(OP_REMOVE, sender));
            }
        }
    }

    /**
     * Shapes an outside tester sends that the runs above rarely made whole (docs/fuzzing.md, seeds 14 on): a share
     * reservation that denies, then a second OPEN of the same file by another owner; byte-range locks that overlap,
     * split and overflow; a size change and a WRITE beyond it in one compound; a LINK then the REMOVE of the first
     * name, the file then used by its handle; a directory renamed over an empty (or not empty) one. Each mostly
     * succeeds up to a last operation that fails now and then (a LOOKUP of a name no compound can create), so that
     * a transaction of it rolls back all of it.
     */
    private void outsideShape(List<nfs_argop4> ops, Sender sender, int shape, String fileName, byte[] owner) {
        String name = fileName;
        stateid4 current = new stateid4(1, new byte[12]);
        stateid4 anonymous = new stateid4(0, new byte[12]);
        boolean v41 = sender.minorVersion() == 1;
        String other = CREATABLE.get(random.nextInt(4));
        nfs_fh4 home = new nfs_fh4(pools.home.clone());
        if (shape == 4) {
            // directories get the long names, so that the short ones stay free for files (an OPEN of a directory
            // ends the compound); now and then the target goes first, so that the rename meets both cases
            name = CREATABLE.get(5 + random.nextInt(2));
            other = CREATABLE.get(name.equals(CREATABLE.get(5)) ? 6 : 5);
            if (random.nextBoolean()) {
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(new nfs_fh4(pools.home.clone()))));
                ops.add(new nfs_argop4(OP_REMOVE, new REMOVE4args(other)));
            }
        } else if (random.nextInt(4) == 0) {
            ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(new nfs_fh4(pools.home.clone()))));
            ops.add(new nfs_argop4(OP_REMOVE, new REMOVE4args(name))); // a directory or file of that name goes
        }
        switch (shape) {
            case 0 -> { // share deny, then a conflicting OPEN of the same file by another owner
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(home)));
                ops.add(new nfs_argop4(OP_OPEN, new OPEN4args(v41 ? 0 : seqid(), 1 + random.nextInt(3),
                        1 + random.nextInt(3), new open_owner4(sender.clientId(), owner),
                        openflag4.create(createhow4.withAttributes(createmode4.UNCHECKED4, attributes())),
                        open_claim4.byName(name))));
                ops.add(new nfs_argop4(OP_GETFH, null));
                ops.add(new nfs_argop4(OP_WRITE, new WRITE4args(v41 ? current : stateid(), random.nextInt(5000),
                        random.nextInt(3), ByteBuffer.wrap(randomBytes(1 + random.nextInt(3000))))));
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(new nfs_fh4(pools.home.clone()))));
                ops.add(new nfs_argop4(OP_OPEN, new OPEN4args(v41 ? 0 : seqid(), 1 + random.nextInt(3),
                        random.nextInt(4), new open_owner4(sender.clientId(), pick(pools.owners).clone()),
                        openflag4.noCreate(), open_claim4.byName(name))));
                if (random.nextBoolean()) {
                    ops.add(new nfs_argop4(OP_CLOSE, new CLOSE4args(0, v41 ? current : stateid())));
                }
            }
            case 1 -> { // byte-range locks: overlapping, split by an unlock in the middle, lengths to the end
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(home)));
                ops.add(new nfs_argop4(OP_OPEN, new OPEN4args(v41 ? 0 : seqid(), 3, 0,
                        new open_owner4(sender.clientId(), owner),
                        openflag4.create(createhow4.withAttributes(createmode4.UNCHECKED4, attributes())),
                        open_claim4.byName(name))));
                long start = random.nextInt(3) == 0 ? offset() : random.nextInt(200);
                long length = random.nextInt(3) == 0 ? length() : 1 + random.nextInt(200);
                ops.add(new nfs_argop4(OP_LOCK, new LOCK4args(1 + random.nextInt(4), false, start, length,
                        locker4.newOwner(new open_to_lock_owner4(0, v41 ? current : stateid(), 0,
                                new lock_owner4(sender.clientId(), pick(pools.owners).clone()))))));
                ops.add(new nfs_argop4(OP_LOCKU, new LOCKU4args(1 + random.nextInt(2), 0, v41 ? current : stateid(),
                        start + random.nextInt(50), random.nextInt(3) == 0 ? length() : 1 + random.nextInt(50))));
                ops.add(new nfs_argop4(OP_LOCK, new LOCK4args(1 + random.nextInt(2), random.nextBoolean(),
                        start + random.nextInt(100), 1 + random.nextInt(100),
                        random.nextBoolean() ? locker4.existingOwner(new exist_lock_owner4(v41 ? current : stateid(), 1))
                                : locker4.newOwner(new open_to_lock_owner4(0, stateid(), 0,
                                        new lock_owner4(clientId(sender), owner()))))));
                ops.add(new nfs_argop4(OP_LOCKT, new LOCKT4args(lockType(), start, length,
                        new lock_owner4(clientId(sender), owner()))));
                if (random.nextBoolean()) {
                    ops.add(new nfs_argop4(OP_WRITE, new WRITE4args(v41 ? current : stateid(), start,
                            random.nextInt(3), ByteBuffer.wrap(randomBytes(1 + random.nextInt(300))))));
                }
            }
            case 2 -> { // a size change and a WRITE beyond it, and back, in one compound
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(home)));
                ops.add(new nfs_argop4(OP_OPEN, new OPEN4args(v41 ? 0 : seqid(), 2 + random.nextInt(2), 0,
                        new open_owner4(sender.clientId(), owner), random.nextBoolean() ? openflag4.noCreate()
                        : openflag4.create(createhow4.withAttributes(createmode4.UNCHECKED4, Attrs.builder().build())),
                        open_claim4.byName(name))));
                stateid4 use = v41 ? current : random.nextBoolean() ? anonymous : stateid();
                ops.add(new nfs_argop4(OP_SETATTR, new SETATTR4args(use,
                        Attrs.builder().size(random.nextInt(3) == 0 ? 0 : random.nextInt(20_000)).build())));
                ops.add(new nfs_argop4(OP_WRITE, new WRITE4args(use, random.nextInt(3) == 0 ? offset()
                        : random.nextInt(20_000), random.nextInt(3), ByteBuffer.wrap(randomBytes(1 + random.nextInt(5000))))));
                if (random.nextBoolean()) {
                    ops.add(new nfs_argop4(OP_SETATTR, new SETATTR4args(use,
                            Attrs.builder().size(random.nextInt(10_000)).build())));
                }
                ops.add(new nfs_argop4(OP_READ, new READ4args(use, 0, 70_000)));
            }
            case 3 -> { // LINK, REMOVE of the first name, the file then used by its handle
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(home)));
                ops.add(new nfs_argop4(OP_LOOKUP, new LOOKUP4args(name)));
                ops.add(new nfs_argop4(OP_SAVEFH, null));
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(new nfs_fh4(pools.home.clone()))));
                ops.add(new nfs_argop4(OP_LINK, new LINK4args(other)));
                ops.add(new nfs_argop4(OP_REMOVE, new REMOVE4args(name)));
                ops.add(new nfs_argop4(OP_RESTOREFH, null));
                ops.add(random.nextBoolean() ? new nfs_argop4(OP_GETATTR, new GETATTR4args(mask()))
                        : new nfs_argop4(OP_WRITE, new WRITE4args(anonymous, random.nextInt(9000), random.nextInt(3),
                                ByteBuffer.wrap(randomBytes(1 + random.nextInt(100))))));
            }
            default -> { // a directory renamed over an empty one (or one with an entry)
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(home)));
                ops.add(new nfs_argop4(OP_CREATE, new CREATE4args(new createtype4(nfs_ftype4.NF4DIR), name,
                        Attrs.builder().build())));
                if (random.nextBoolean()) {
                    ops.add(new nfs_argop4(OP_CREATE, new CREATE4args(new createtype4(nfs_ftype4.NF4DIR),
                            CREATABLE.get(random.nextInt(4)), Attrs.builder().build())));
                }
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(new nfs_fh4(pools.home.clone()))));
                ops.add(new nfs_argop4(OP_CREATE, new CREATE4args(new createtype4(nfs_ftype4.NF4DIR), other,
                        Attrs.builder().build())));
                if (random.nextInt(3) == 0) {
                    ops.add(new nfs_argop4(OP_CREATE, new CREATE4args(new createtype4(nfs_ftype4.NF4DIR),
                            CREATABLE.get(random.nextInt(4)), Attrs.builder().build())));
                }
                ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(new nfs_fh4(pools.home.clone()))));
                ops.add(new nfs_argop4(OP_SAVEFH, null));
                ops.add(new nfs_argop4(OP_RENAME, new RENAME4args(name, other)));
                ops.add(new nfs_argop4(OP_READDIR, new READDIR4args(0, new verifier4(new byte[8]), 4096, 8192,
                        Attrs.mask(nfs4_attr.FATTR4_TYPE, nfs4_attr.FATTR4_FILEID))));
            }
        }
        if (random.nextInt(3) == 0) {
            ops.add(new nfs_argop4(OP_PUTFH, new PUTFH4args(new nfs_fh4(pools.home.clone()))));
            ops.add(new nfs_argop4(OP_LOOKUP, new LOOKUP4args("no-compound-creates-this")));
        }
    }

    private XdrAble openattrOrNothing(int op) {
        return op == OP_OPENATTR ? new RawArgs(w -> w.xdrEncodeBoolean(random.nextBoolean())) : null;
    }

    // ---- arguments

    private XdrAble create() {
        int[] types = {nfs_ftype4.NF4DIR, nfs_ftype4.NF4DIR, nfs_ftype4.NF4LNK, nfs_ftype4.NF4FIFO, nfs_ftype4.NF4SOCK,
            nfs_ftype4.NF4BLK, nfs_ftype4.NF4CHR, nfs_ftype4.NF4REG, nfs_ftype4.NF4ATTRDIR, 0, 42};
        int type = types[random.nextInt(types.length)];
        byte[] name = name();
        fattr4 attrs = attributes();
        byte[] link = random.nextBoolean() ? bytes("../" + new String(name(), StandardCharsets.ISO_8859_1))
                : name();
        if (type == nfs_ftype4.NF4REG || type == nfs_ftype4.NF4ATTRDIR || type == 0 || type == 42 || !isUtf8(name)) {
            // not an XDR-valid createtype4 for our typed encoder, or a name the String type cannot carry: raw
            return new RawArgs(w -> {
                w.xdrEncodeInt(type);
                if (type == nfs_ftype4.NF4LNK) {
                    w.xdrEncodeDynamicOpaque(link);
                } else if (type == nfs_ftype4.NF4BLK || type == nfs_ftype4.NF4CHR) {
                    w.xdrEncodeInt(random.nextInt(8));
                    w.xdrEncodeInt(random.nextInt(8));
                }
                w.xdrEncodeDynamicOpaque(name);
                attrs.xdrEncode(w);
            }, type == 0 || type == 42); // createtype4's default arm is void, but nfs_ftype4 has no 0 or 42
        }
        createtype4 t = new createtype4(type);
        if (type == nfs_ftype4.NF4LNK) {
            t.linkdata = link;
        } else if (type == nfs_ftype4.NF4BLK || type == nfs_ftype4.NF4CHR) {
            t.devdata = new specdata4();
            t.devdata.specdata1 = random.nextInt(8);
            t.devdata.specdata2 = random.nextInt(8);
        }
        return new CREATE4args(t, new String(name, StandardCharsets.UTF_8), attrs);
    }

    private XdrAble nameArgs(int op) {
        byte[] name = name();
        if (!isUtf8(name)) {
            return new RawArgs(w -> w.xdrEncodeDynamicOpaque(name));
        }
        String s = new String(name, StandardCharsets.UTF_8);
        return switch (op) {
            case OP_LINK -> new LINK4args(s);
            case OP_LOOKUP -> new LOOKUP4args(s);
            case OP_REMOVE -> new REMOVE4args(s);
            default -> new SECINFO4args(s);
        };
    }

    private XdrAble rename() {
        byte[] from = name();
        byte[] to = name();
        if (isUtf8(from) && isUtf8(to)) {
            return new RENAME4args(new String(from, StandardCharsets.UTF_8), new String(to, StandardCharsets.UTF_8));
        }
        return new RawArgs(w -> {
            w.xdrEncodeDynamicOpaque(from);
            w.xdrEncodeDynamicOpaque(to);
        });
    }

    private XdrAble lock(Sender sender) {
        locker4 locker = random.nextBoolean()
                ? locker4.newOwner(new open_to_lock_owner4(seqid(), stateid(), seqid(),
                        new lock_owner4(clientId(sender), owner())))
                : locker4.existingOwner(new exist_lock_owner4(stateid(), seqid()));
        return new LOCK4args(lockType(), random.nextInt(10) == 0, offset(), length(), locker);
    }

    private XdrAble open(Sender sender) {
        int[] claims = {open_claim_type4.CLAIM_NULL, open_claim_type4.CLAIM_NULL, open_claim_type4.CLAIM_NULL,
            open_claim_type4.CLAIM_PREVIOUS, open_claim_type4.CLAIM_DELEGATE_CUR, open_claim_type4.CLAIM_DELEGATE_PREV,
            open_claim_type4.CLAIM_FH, open_claim_type4.CLAIM_FH, open_claim_type4.CLAIM_DELEG_CUR_FH,
            open_claim_type4.CLAIM_DELEG_PREV_FH};
        int claimType = claims[random.nextInt(claims.length)];
        String name = utf8Name();
        open_claim4 claim = new open_claim4();
        claim.claim = claimType;
        switch (claimType) {
            case open_claim_type4.CLAIM_NULL, open_claim_type4.CLAIM_DELEGATE_PREV -> {
                claim.file = name;
                claim.file_delegate_prev = name;
            }
            case open_claim_type4.CLAIM_PREVIOUS -> claim.delegate_type = random.nextInt(4);
            case open_claim_type4.CLAIM_DELEGATE_CUR -> claim.delegate_cur_info = new open_claim_delegate_cur4(stateid(),
                    name);
            case open_claim_type4.CLAIM_DELEG_CUR_FH -> claim.oc_delegate_stateid = stateid();
            default -> {
            }
        }
        openflag4 how;
        if (random.nextBoolean()) {
            how = openflag4.noCreate();
        } else {
            int mode = random.nextInt(sender.minorVersion() == 0 ? 3 : 4);
            how = switch (mode) {
                case createmode4.UNCHECKED4, createmode4.GUARDED4 -> openflag4.create(
                        createhow4.withAttributes(mode, attributes()));
                case createmode4.EXCLUSIVE4 -> openflag4.create(createhow4.exclusive(new verifier4(randomBytes(8))));
                default -> openflag4.create(createhow4.exclusive41(new verifier4(randomBytes(8)), attributes()));
            };
        }
        int access = shareAccess();
        if (random.nextInt(6) == 0) {
            access |= random.nextInt(8) << 8; // delegation wants, some of them invalid
        }
        return new OPEN4args(seqid(), access, shareDeny(), new open_owner4(clientId(sender), owner()), how, claim);
    }

    /** Settable, read-only, unknown and write-only attributes, values right, wrong or out of range. */
    fattr4 attributes() {
        if (random.nextInt(12) == 0) {
            int[] mask = new int[1 + random.nextInt(4)];
            for (int i = 0; i < mask.length; i++) {
                mask[i] = random.nextInt();
            }
            return new fattr4(new bitmap4(mask), randomBytes(random.nextInt(64)));
        }
        Attrs.Builder b = Attrs.builder();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            switch (random.nextInt(12)) {
                case 0 -> b.size(random.nextBoolean() ? random.nextInt(10_000) : offset());
                case 1 -> b.mode(random.nextInt(3) == 0 ? random.nextInt() : random.nextInt(01000000));
                case 2 -> b.owner(pickOf("0", "root", "nobody", "65534", "4294967295", "-1", "x@y", "", "1000",
                        "99999999999", "a b"));
                case 3 -> b.ownerGroup(pickOf("0", "root", "nogroup", "65534", "-1", "g@h", ""));
                case 4 -> b.timeModifySet(random.nextBoolean() ? random.nextLong() : 1_700_000_000L,
                        random.nextBoolean() ? random.nextInt() : 5);
                case 5 -> b.timeAccessSet(random.nextLong(), random.nextInt(2_000_000_000));
                case 6 -> b.timeModifySetToServer();
                case 7 -> b.raw(pickOf(nfs4_attr.FATTR4_TYPE, nfs4_attr.FATTR4_FILEID, nfs4_attr.FATTR4_CHANGE,
                        nfs4_attr.FATTR4_NUMLINKS, nfs4_attr.FATTR4_SPACE_USED), randomBytes(8));
                case 8 -> b.raw(60 + random.nextInt(200), randomBytes(random.nextInt(3) * 4));
                case 9 -> b.raw(nfs4_attr.FATTR4_ACL, randomBytes(4 * random.nextInt(6)));
                case 10 -> b.raw(pickOf(nfs4_attr.FATTR4_HIDDEN, nfs4_attr.FATTR4_ARCHIVE, nfs4_attr.FATTR4_SYSTEM,
                        nfs4_attr.FATTR4_MIMETYPE, nfs4_attr.FATTR4_TIME_BACKUP, nfs4_attr.FATTR4_TIME_CREATE),
                        randomBytes(4 * (1 + random.nextInt(3))));
                default -> b.raw(nfs4_attr.FATTR4_SIZE, randomBytes(random.nextInt(3) * 4));
            }
        }
        try {
            return b.build();
        } catch (RuntimeException e) {
            return Attrs.builder().build(); // e.g. the same attribute twice
        }
    }

    private bitmap4 mask() {
        int[] words = new int[random.nextInt(4)];
        for (int i = 0; i < words.length; i++) {
            words[i] = random.nextInt(3) == 0 ? random.nextInt() : random.nextInt(1 << 12);
        }
        return new bitmap4(words);
    }

    private byte[] name() {
        int r = random.nextInt(10);
        if (r < 6) {
            return bytes(CREATABLE.get(random.nextInt(CREATABLE.size() - (random.nextInt(8) == 0 ? 0 : 3))));
        }
        return HOSTILE_NAMES[random.nextInt(HOSTILE_NAMES.length)].clone();
    }

    private String utf8Name() {
        byte[] name = name();
        return isUtf8(name) ? new String(name, StandardCharsets.UTF_8) : "a";
    }

    private byte[] handle() {
        int r = random.nextInt(10);
        if (r < 7 && !pools.handles.isEmpty()) {
            return pick(pools.handles).clone();
        }
        return switch (random.nextInt(6)) {
            case 0 -> new byte[0];
            case 1 -> randomBytes(16);
            case 2 -> randomBytes(1 + random.nextInt(XdrSupport.NFS4_FHSIZE));
            case 3 -> {
                byte[] h = pools.handles.isEmpty() ? randomBytes(16) : pick(pools.handles).clone();
                h[random.nextInt(h.length)] ^= (byte) (1 << random.nextInt(8));
                yield h;
            }
            case 4 -> new byte[XdrSupport.NFS4_FHSIZE];
            default -> pools.home.clone();
        };
    }

    private stateid4 stateid() {
        int r = random.nextInt(12);
        if (r < 6 && !pools.stateids.isEmpty()) {
            stateid4 s = pick(pools.stateids);
            int seqid = switch (random.nextInt(6)) {
                case 0 -> 0;
                case 1 -> s.seqid + 1;
                case 2 -> s.seqid - 1;
                default -> s.seqid;
            };
            return new stateid4(seqid, s.other.clone());
        }
        byte[] ones = new byte[12];
        java.util.Arrays.fill(ones, (byte) 0xff);
        return switch (r) {
            case 6 -> new stateid4(0, new byte[12]); // anonymous
            case 7 -> new stateid4(-1, ones); // READ bypass
            case 8 -> new stateid4(1, new byte[12]); // current
            case 9 -> new stateid4(0, ones); // invalid special
            case 10 -> new stateid4(random.nextInt(), new byte[12]);
            default -> new stateid4(random.nextInt(), randomBytes(12));
        };
    }

    private long clientId(Sender sender) {
        return switch (random.nextInt(5)) {
            case 0 -> random.nextLong();
            case 1 -> pools.clientIds.isEmpty() ? 0 : pick(pools.clientIds);
            default -> sender.clientId();
        };
    }

    private byte[] owner() {
        return random.nextInt(5) == 0 ? randomBytes(random.nextInt(1025)) : pick(pools.owners).clone();
    }

    private byte[] sessionId() {
        return random.nextBoolean() && !pools.sessionIds.isEmpty() ? pick(pools.sessionIds).clone() : randomBytes(16);
    }

    private int seqid() {
        return random.nextInt(3) == 0 ? random.nextInt() : random.nextInt(4);
    }

    private int shareAccess() {
        return random.nextInt(8) == 0 ? random.nextInt(8) : 1 + random.nextInt(3);
    }

    private int shareDeny() {
        return random.nextInt(8) == 0 ? random.nextInt(8) : random.nextInt(4);
    }

    private int lockType() {
        return 1 + enumValue(4, 1);
    }

    /** A value of an enum whose {@code n} values are 0 to n-1, one out of range now and then (and noted). */
    private int enumValue(int n, int outside) {
        if (random.nextInt(12) == 0) {
            badEnum = true;
            return random.nextBoolean() ? -1 - random.nextInt(outside + 1) : n + random.nextInt(3);
        }
        return random.nextInt(n);
    }

    private long offset() {
        return random.nextInt(3) == 0 ? random.nextInt(10_000) : OFFSETS[random.nextInt(OFFSETS.length)];
    }

    private long length() {
        return random.nextInt(3) == 0 ? 1 + random.nextInt(10_000) : LENGTHS[random.nextInt(LENGTHS.length)];
    }

    private int count() {
        return random.nextInt(3) == 0 ? random.nextInt(70_000) : COUNTS[random.nextInt(COUNTS.length)];
    }

    private <T> T pick(List<T> list) {
        return list.get(random.nextInt(list.size()));
    }

    @SafeVarargs
    private <T> T pickOf(T... values) {
        return values[random.nextInt(values.length)];
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static boolean isUtf8(byte[] b) {
        return XdrSupport.isUtf8(b);
    }

    /**
     * Arguments written by hand: names that are not UTF-8 (which the typed arguments, holding a String, cannot
     * carry) and argument shapes the typed encoders refuse. Never decoded.
     */
    static final class RawArgs implements XdrAble {
        /** Writes the arguments. */
        @FunctionalInterface
        interface Writer {
            void write(XdrEncodingStream xdr) throws OncRpcException, IOException;
        }

        private final Writer writer;
        /** Whether the arguments are not valid XDR of the operation (a union arm the protocol does not have). */
        final boolean malformed;

        RawArgs(Writer writer) {
            this(writer, false);
        }

        RawArgs(Writer writer, boolean malformed) {
            this.writer = writer;
            this.malformed = malformed;
        }

        @Override
        public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
            writer.write(xdr);
        }

        @Override
        public void xdrDecode(XdrDecodingStream xdr) {
            throw new UnsupportedOperationException("never decoded");
        }
    }
}
