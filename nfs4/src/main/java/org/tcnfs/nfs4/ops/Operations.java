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
        nfs40Ops(ops);
        return ops;
    }

    // PUTROOTFH, PUTPUBFH, PUTFH, GETFH, SAVEFH, RESTOREFH, LOOKUP, LOOKUPP, SECINFO, SECINFO_NO_NAME
    private static void filehandleOps(Map<Integer, NfsOperation> ops) {
        ops.put(OP_PUTROOTFH, new OperationPUTROOTFH());
        ops.put(OP_PUTPUBFH, new OperationPUTPUBFH());
        ops.put(OP_PUTFH, new OperationPUTFH());
        ops.put(OP_GETFH, new OperationGETFH());
        ops.put(OP_SAVEFH, new OperationSAVEFH());
        ops.put(OP_RESTOREFH, new OperationRESTOREFH());
        ops.put(OP_LOOKUP, new OperationLOOKUP());
        ops.put(OP_LOOKUPP, new OperationLOOKUPP());
        ops.put(OP_SECINFO, new OperationSECINFO());
        ops.put(OP_SECINFO_NO_NAME, new OperationSECINFO_NO_NAME());
    }

    // CREATE, REMOVE, RENAME, LINK, READLINK, READDIR, ACCESS
    private static void namespaceOps(Map<Integer, NfsOperation> ops) {
        ops.put(OP_CREATE, new OperationCREATE());
        ops.put(OP_REMOVE, new OperationREMOVE());
        ops.put(OP_RENAME, new OperationRENAME());
        ops.put(OP_LINK, new OperationLINK());
        ops.put(OP_READLINK, new OperationREADLINK());
        ops.put(OP_ACCESS, new OperationACCESS());
    }

    // GETATTR, SETATTR, VERIFY, NVERIFY, READ, WRITE, COMMIT
    private static void dataAndAttributeOps(Map<Integer, NfsOperation> ops) {
        ops.put(OP_GETATTR, new OperationGETATTR());
        ops.put(OP_SETATTR, new OperationSETATTR());
        ops.put(OP_VERIFY, new OperationVERIFY());
        ops.put(OP_NVERIFY, new OperationNVERIFY());
        ops.put(OP_READ, new OperationREAD());
        ops.put(OP_WRITE, new OperationWRITE());
        ops.put(OP_COMMIT, new OperationCOMMIT());
        // READDIR is listed with the namespace operations above but lives here, with the attribute code
        ops.put(OP_READDIR, new OperationREADDIR());
    }

    // EXCHANGE_ID, CREATE_SESSION, SEQUENCE, DESTROY_SESSION, DESTROY_CLIENTID, BIND_CONN_TO_SESSION,
    // RECLAIM_COMPLETE, BACKCHANNEL_CTL
    private static void sessionOps(Map<Integer, NfsOperation> ops) {
        ops.put(OP_EXCHANGE_ID, new OperationEXCHANGE_ID());
        ops.put(OP_CREATE_SESSION, new OperationCREATE_SESSION());
        ops.put(OP_SEQUENCE, new OperationSEQUENCE());
        ops.put(OP_DESTROY_SESSION, new OperationDESTROY_SESSION());
        ops.put(OP_DESTROY_CLIENTID, new OperationDESTROY_CLIENTID());
        ops.put(OP_BIND_CONN_TO_SESSION, new OperationBIND_CONN_TO_SESSION());
        ops.put(OP_RECLAIM_COMPLETE, new OperationRECLAIM_COMPLETE());
        ops.put(OP_BACKCHANNEL_CTL, new OperationBACKCHANNEL_CTL());
    }

    // OPEN, CLOSE, OPEN_DOWNGRADE, LOCK, LOCKT, LOCKU, TEST_STATEID, FREE_STATEID, DELEGRETURN
    private static void stateOps(Map<Integer, NfsOperation> ops) {
        ops.put(OP_OPEN, new OperationOPEN());
        ops.put(OP_CLOSE, new OperationCLOSE());
        ops.put(OP_OPEN_DOWNGRADE, new OperationOPEN_DOWNGRADE());
        ops.put(OP_LOCK, new OperationLOCK());
        ops.put(OP_LOCKT, new OperationLOCKT());
        ops.put(OP_LOCKU, new OperationLOCKU());
        ops.put(OP_TEST_STATEID, new OperationTEST_STATEID());
        ops.put(OP_FREE_STATEID, new OperationFREE_STATEID());
        ops.put(OP_DELEGRETURN, new OperationDELEGRETURN());
    }

    // SETCLIENTID, SETCLIENTID_CONFIRM, RENEW, OPEN_CONFIRM, RELEASE_LOCKOWNER (NFSv4.0 only; the engine
    // answers them NFS4ERR_NOTSUPP in NFSv4.1 compounds)
    private static void nfs40Ops(Map<Integer, NfsOperation> ops) {
        ops.put(OP_SETCLIENTID, new OperationSETCLIENTID());
        ops.put(OP_SETCLIENTID_CONFIRM, new OperationSETCLIENTID_CONFIRM());
        ops.put(OP_RENEW, new OperationRENEW());
        ops.put(OP_OPEN_CONFIRM, new OperationOPEN_CONFIRM());
        ops.put(OP_RELEASE_LOCKOWNER, new OperationRELEASE_LOCKOWNER());
    }
}
