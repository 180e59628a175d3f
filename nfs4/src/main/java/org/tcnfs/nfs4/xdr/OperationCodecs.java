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

    private static final Map<Integer, Codec> CODECS = new HashMap<>();

    static {
        registerFilehandleOps();
        registerNamespaceOps();
        registerDataAndAttributeOps();
        registerSessionOps();
        registerStateOps();
    }

    private OperationCodecs() {
    }

    /** Whether the server can decode this operation number. */
    public static boolean knows(int op) {
        return CODECS.containsKey(op);
    }

    /** A new, empty args object for {@code op}, or {@code null} if the operation takes no arguments. */
    public static XdrAble newArgs(int op) {
        Codec c = CODECS.get(op);
        return c == null || c.args() == null ? null : c.args().get();
    }

    /** A new, empty result body for {@code op} ending with {@code status}, or {@code null} if none. */
    public static XdrAble newResultBody(int op, int status) {
        Codec c = CODECS.get(op);
        return c == null ? null : c.resultBody().apply(status);
    }

    /** Registers an operation. {@code args} may be {@code null} for operations without arguments. */
    static void register(int op, Supplier<XdrAble> args, IntFunction<XdrAble> resultBody) {
        if (CODECS.putIfAbsent(op, new Codec(args, resultBody)) != null) {
            throw new IllegalStateException("operation registered twice: " + nfs_opnum4.name(op));
        }
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
    }

    // CREATE, REMOVE, RENAME, LINK, READLINK, READDIR, ACCESS
    private static void registerNamespaceOps() {
    }

    // GETATTR, SETATTR, VERIFY, NVERIFY, READ, WRITE, COMMIT
    private static void registerDataAndAttributeOps() {
    }

    // EXCHANGE_ID, CREATE_SESSION, SEQUENCE, DESTROY_SESSION, DESTROY_CLIENTID, BIND_CONN_TO_SESSION,
    // RECLAIM_COMPLETE, BACKCHANNEL_CTL
    private static void registerSessionOps() {
    }

    // OPEN, CLOSE, OPEN_DOWNGRADE, LOCK, LOCKT, LOCKU, TEST_STATEID, FREE_STATEID, DELEGRETURN
    private static void registerStateOps() {
    }
}
