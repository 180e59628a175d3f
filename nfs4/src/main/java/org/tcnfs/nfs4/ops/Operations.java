package org.tcnfs.nfs4.ops;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.util.HashMap;
import java.util.Map;
import org.tcnfs.nfs4.compound.NfsOperation;

/**
 * The operations this server implements, by number. Each has one class ({@code OperationREAD} for READ);
 * an operation that decodes but is not listed here is answered with NFS4ERR_NOTSUPP.
 */
public final class Operations {
    private Operations() {
    }

    /** Every implemented operation of NFSv4.0 and 4.1. */
    public static Map<Integer, NfsOperation> all() {
        Map<Integer, NfsOperation> ops = new HashMap<>();
        filehandleOps(ops);
        namespaceOps(ops);
        dataAndAttributeOps(ops);
        sessionOps(ops);
        stateOps(ops);
        return ops;
    }

    // PUTROOTFH, PUTPUBFH, PUTFH, GETFH, SAVEFH, RESTOREFH, LOOKUP, LOOKUPP, SECINFO, SECINFO_NO_NAME
    private static void filehandleOps(Map<Integer, NfsOperation> ops) {
    }

    // CREATE, REMOVE, RENAME, LINK, READLINK, READDIR, ACCESS
    private static void namespaceOps(Map<Integer, NfsOperation> ops) {
    }

    // GETATTR, SETATTR, VERIFY, NVERIFY, READ, WRITE, COMMIT
    private static void dataAndAttributeOps(Map<Integer, NfsOperation> ops) {
    }

    // EXCHANGE_ID, CREATE_SESSION, SEQUENCE, DESTROY_SESSION, DESTROY_CLIENTID, BIND_CONN_TO_SESSION,
    // RECLAIM_COMPLETE, BACKCHANNEL_CTL
    private static void sessionOps(Map<Integer, NfsOperation> ops) {
    }

    // OPEN, CLOSE, OPEN_DOWNGRADE, LOCK, LOCKT, LOCKU, TEST_STATEID, FREE_STATEID, DELEGRETURN
    private static void stateOps(Map<Integer, NfsOperation> ops) {
    }
}
