package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.ops.Nfs40Harness.getfh;
import static org.tcnfs.nfs4.ops.Nfs40Harness.op;
import static org.tcnfs.nfs4.ops.Nfs40Harness.putfh;
import static org.tcnfs.nfs4.ops.Nfs40Harness.renew;
import static org.tcnfs.nfs4.ops.Nfs40Harness.setclientid;
import static org.tcnfs.nfs4.ops.Nfs40Harness.status;
import static org.tcnfs.nfs4.ops.Nfs40Harness.verifier;

import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.RECLAIM_COMPLETE4args;
import org.tcnfs.nfs4.xdr.SEQUENCE4args;
import org.tcnfs.nfs4.xdr.nfs_opnum4;

/**
 * Which operations each minor version has: NFSv4.1 operations in a minor-version-0 compound are
 * NFS4ERR_OP_ILLEGAL (RFC 7530 15.2, 16.38), the NFSv4.0-only operations in a minor-version-1 compound
 * NFS4ERR_NOTSUPP (RFC 8881 section 17 marks them "MUST NOT implement").
 */
class Nfs40CompoundRulesTest {
    private final Nfs40Harness h = new Nfs40Harness();

    @AfterEach
    void stop() {
        h.close();
    }

    @Test
    void sequenceInMinorVersionZeroIsOpIllegalAndEndsTheCompound() throws Exception {
        COMPOUND4res res = h.compound(putfh(h.root()), op(nfs_opnum4.OP_SEQUENCE, new SEQUENCE4args()), getfh());
        assertThat(status(res)).isEqualTo(NfsStatus.OP_ILLEGAL);
        assertThat(res.resarray).hasSize(2);
        assertThat(res.resarray[1].resop).isEqualTo(nfs_opnum4.OP_ILLEGAL);
    }

    @Test
    void everyNfs41OperationIsOpIllegalInMinorVersionZero() throws Exception {
        COMPOUND4res res = h.compound(op(nfs_opnum4.OP_RECLAIM_COMPLETE, new RECLAIM_COMPLETE4args()));
        assertThat(status(res)).isEqualTo(NfsStatus.OP_ILLEGAL);
        assertThat(res.resarray[0].resop).isEqualTo(nfs_opnum4.OP_ILLEGAL);
    }

    @Test
    void nfs40OnlyOperationsAreNotSuppInMinorVersionOne() throws Exception {
        COMPOUND4res setclientid = h.compound(1, Credential.ROOT, setclientid("c", verifier(1)));
        assertThat(status(setclientid)).isEqualTo(NfsStatus.NOTSUPP);
        assertThat(setclientid.resarray[0].resop).isEqualTo(nfs_opnum4.OP_SETCLIENTID);
        assertThat(status(h.compound(1, Credential.ROOT, renew(1)))).isEqualTo(NfsStatus.NOTSUPP);
        assertThat(h.state.clientCount()).as("nothing was recorded").isZero();
    }

    @Test
    void minorVersionsBeyondOneAreMismatched() throws Exception {
        COMPOUND4res res = h.compound(2, Credential.ROOT, putfh(h.root()));
        assertThat(status(res)).isEqualTo(NfsStatus.MINOR_VERS_MISMATCH);
        assertThat(res.resarray).isEmpty();
    }

    @Test
    void minorVersionZeroRunsWithoutSequenceAndKeepsTheFileHandleRules() throws Exception {
        COMPOUND4res res = h.compound(putfh(h.root()), getfh(), op(nfs_opnum4.OP_SAVEFH, null),
                op(nfs_opnum4.OP_RESTOREFH, null), getfh());
        assertThat(status(res)).isEqualTo(NfsStatus.OK);
        assertThat(Arrays.stream(res.resarray).map(r -> r.resop))
                .containsExactly(nfs_opnum4.OP_PUTFH, nfs_opnum4.OP_GETFH, nfs_opnum4.OP_SAVEFH,
                        nfs_opnum4.OP_RESTOREFH, nfs_opnum4.OP_GETFH);
        assertThat(status(h.compound(getfh()))).isEqualTo(NfsStatus.NOFILEHANDLE);
    }
}
