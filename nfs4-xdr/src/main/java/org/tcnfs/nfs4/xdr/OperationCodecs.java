package org.tcnfs.nfs4.xdr;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.dcache.oncrpc4j.xdr.XdrAble;

/**
 * Which XDR type carries the arguments of each operation, and which the result body for each status.
 *
 * <p>This is the only table of wire types per operation; the compound engine and the client both decode
 * through it. Operations are grouped by the area that owns them; an operation that is missing here is
 * answered with NFS4ERR_OP_ILLEGAL by the server (it cannot be decoded).
 */
public final class OperationCodecs {

    /** How to decode one operation: a fresh args object (or none) and a result body for a status. */
    private record Codec(Supplier<XdrAble> args, IntFunction<XdrAble> resultBody) {
    }

    /**
     * The codecs of operation numbers below {@value #DIRECT}, by number (every operation but ILLEGAL): found without
     * boxing or hashing, as every decoded operation and every encoded result asks.
     */
    private static final int DIRECT = 128;
    private static final Codec[] BY_NUMBER = new Codec[DIRECT];
    /** The codecs of larger operation numbers (ILLEGAL). */
    private static final Map<Integer, Codec> BEYOND = new HashMap<>();

    static {
        registerFilehandleOps();
        registerNamespaceOps();
        registerDataAndAttributeOps();
        registerSessionOps();
        registerStateOps();
        registerNfs40Ops();
    }

    private OperationCodecs() {
    }

    /** Whether the server can decode this operation number. */
    public static boolean knows(int op) {
        return codec(op) != null;
    }

    /** A new, empty args object for {@code op}, or {@code null} if the operation takes no arguments. */
    public static XdrAble newArgs(int op) {
        Codec c = codec(op);
        return c == null || c.args() == null ? null : c.args().get();
    }

    /** A new, empty result body for {@code op} ending with {@code status}, or {@code null} if none. */
    public static XdrAble newResultBody(int op, int status) {
        Codec c = codec(op);
        return c == null ? null : c.resultBody().apply(status);
    }

    /** Registers an operation. {@code args} may be {@code null} for operations without arguments. */
    static void register(int op, Supplier<XdrAble> args, IntFunction<XdrAble> resultBody) {
        if (codec(op) != null) {
            throw new IllegalStateException("operation registered twice: " + nfs_opnum4.name(op));
        }
        Codec codec = new Codec(args, resultBody);
        if (op >= 0 && op < DIRECT) {
            BY_NUMBER[op] = codec;
        } else {
            BEYOND.put(op, codec);
        }
    }

    /** The codec of operation number {@code op}, or {@code null}. */
    private static Codec codec(int op) {
        return op >= 0 && op < DIRECT ? BY_NUMBER[op] : BEYOND.get(op);
    }

    /** A result whose body follows only NFS4_OK. */
    static IntFunction<XdrAble> okBody(Supplier<XdrAble> body) {
        return status -> status == 0 ? body.get() : null;
    }

    /** A result that is the status alone. */
    static IntFunction<XdrAble> statusOnly() {
        return status -> null;
    }

    /** A result whose body follows every status (SETATTR4res). */
    static IntFunction<XdrAble> alwaysBody(Supplier<XdrAble> body) {
        return status -> body.get();
    }

    // PUTROOTFH, PUTPUBFH, PUTFH, GETFH, SAVEFH, RESTOREFH, LOOKUP, LOOKUPP, SECINFO, SECINFO_NO_NAME
    private static void registerFilehandleOps() {
        register(OP_ILLEGAL, null, statusOnly());
        register(OP_PUTROOTFH, null, statusOnly());
        register(OP_PUTPUBFH, null, statusOnly());
        register(OP_PUTFH, PUTFH4args::new, statusOnly());
        register(OP_GETFH, null, okBody(GETFH4resok::new));
        register(OP_SAVEFH, null, statusOnly());
        register(OP_RESTOREFH, null, statusOnly());
        register(OP_LOOKUP, LOOKUP4args::new, statusOnly());
        register(OP_LOOKUPP, null, statusOnly());
        register(OP_SECINFO, SECINFO4args::new, okBody(SECINFO4resok::new));
        register(OP_SECINFO_NO_NAME, SECINFO_NO_NAME4args::new, okBody(SECINFO4resok::new));
    }

    // CREATE, REMOVE, RENAME, LINK, READLINK, READDIR, ACCESS
    private static void registerNamespaceOps() {
        register(OP_CREATE, CREATE4args::new, okBody(CREATE4resok::new));
        register(OP_REMOVE, REMOVE4args::new, okBody(REMOVE4resok::new));
        register(OP_RENAME, RENAME4args::new, okBody(RENAME4resok::new));
        register(OP_LINK, LINK4args::new, okBody(LINK4resok::new));
        register(OP_READLINK, null, okBody(READLINK4resok::new));
        register(OP_ACCESS, ACCESS4args::new, okBody(ACCESS4resok::new));
    }

    // GETATTR, SETATTR, VERIFY, NVERIFY, READ, WRITE, COMMIT
    private static void registerDataAndAttributeOps() {
        register(OP_GETATTR, GETATTR4args::new, okBody(GETATTR4resok::new));
        register(OP_SETATTR, SETATTR4args::new, alwaysBody(SETATTR4res::new));
        register(OP_VERIFY, VERIFY4args::new, statusOnly());
        register(OP_NVERIFY, NVERIFY4args::new, statusOnly());
        register(OP_READ, READ4args::new, okBody(READ4resok::new));
        register(OP_WRITE, WRITE4args::new, okBody(WRITE4resok::new));
        register(OP_COMMIT, COMMIT4args::new, okBody(COMMIT4resok::new));
        // READDIR is listed with the namespace operations above but lives here, with the attribute code
        register(OP_READDIR, READDIR4args::new, okBody(READDIR4resok::new));
    }

    // EXCHANGE_ID, CREATE_SESSION, SEQUENCE, DESTROY_SESSION, DESTROY_CLIENTID, BIND_CONN_TO_SESSION,
    // RECLAIM_COMPLETE, BACKCHANNEL_CTL
    private static void registerSessionOps() {
        register(OP_EXCHANGE_ID, EXCHANGE_ID4args::new, okBody(EXCHANGE_ID4resok::new));
        register(OP_CREATE_SESSION, CREATE_SESSION4args::new, okBody(CREATE_SESSION4resok::new));
        register(OP_SEQUENCE, SEQUENCE4args::new, okBody(SEQUENCE4resok::new));
        register(OP_DESTROY_SESSION, DESTROY_SESSION4args::new, statusOnly());
        register(OP_DESTROY_CLIENTID, DESTROY_CLIENTID4args::new, statusOnly());
        register(OP_BIND_CONN_TO_SESSION, BIND_CONN_TO_SESSION4args::new, okBody(BIND_CONN_TO_SESSION4resok::new));
        register(OP_RECLAIM_COMPLETE, RECLAIM_COMPLETE4args::new, statusOnly());
        register(OP_BACKCHANNEL_CTL, BACKCHANNEL_CTL4args::new, statusOnly());
    }

    // OPEN, CLOSE, OPEN_DOWNGRADE, LOCK, LOCKT, LOCKU, TEST_STATEID, FREE_STATEID, DELEGRETURN
    private static void registerStateOps() {
        int denied = org.tcnfs.nfs4.status.NfsStatus.DENIED.code();
        register(OP_OPEN, OPEN4args::new, okBody(OPEN4resok::new));
        register(OP_CLOSE, CLOSE4args::new, okBody(stateid4::new));
        register(OP_OPEN_DOWNGRADE, OPEN_DOWNGRADE4args::new, okBody(OPEN_DOWNGRADE4resok::new));
        register(OP_LOCK, LOCK4args::new,
                status -> status == 0 ? new LOCK4resok() : status == denied ? new LOCK4denied() : null);
        register(OP_LOCKT, LOCKT4args::new, status -> status == denied ? new LOCK4denied() : null);
        register(OP_LOCKU, LOCKU4args::new, okBody(stateid4::new));
        register(OP_TEST_STATEID, TEST_STATEID4args::new, okBody(TEST_STATEID4resok::new));
        register(OP_FREE_STATEID, FREE_STATEID4args::new, statusOnly());
        register(OP_DELEGRETURN, DELEGRETURN4args::new, statusOnly());
    }

    // SETCLIENTID, SETCLIENTID_CONFIRM, RENEW, OPEN_CONFIRM, RELEASE_LOCKOWNER (NFSv4.0 only, RFC 7530)
    private static void registerNfs40Ops() {
        int clidInUse = org.tcnfs.nfs4.status.NfsStatus.CLID_INUSE.code();
        register(OP_SETCLIENTID, SETCLIENTID4args::new,
                status -> status == 0 ? new SETCLIENTID4resok() : status == clidInUse ? new netaddr4() : null);
        register(OP_SETCLIENTID_CONFIRM, SETCLIENTID_CONFIRM4args::new, statusOnly());
        register(OP_RENEW, RENEW4args::new, statusOnly());
        register(OP_OPEN_CONFIRM, OPEN_CONFIRM4args::new, okBody(OPEN_CONFIRM4resok::new));
        register(OP_RELEASE_LOCKOWNER, RELEASE_LOCKOWNER4args::new, statusOnly());
    }
}
