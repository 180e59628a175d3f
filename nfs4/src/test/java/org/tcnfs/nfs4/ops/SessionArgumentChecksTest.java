package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.ops.SessionHarness.*;
import static org.tcnfs.nfs4.xdr.EXCHANGE_ID4args.*;

import java.net.InetAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4args;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4resok;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * Argument checks of EXCHANGE_ID and CREATE_SESSION that the pynfs NFSv4.1 server suite found missing
 * (each test names the pynfs test code it answers). The checks run before any client state is touched.
 */
class SessionArgumentChecksTest {
    private final SessionHarness h = new SessionHarness();

    @AfterEach
    void close() {
        h.close();
    }

    // ------------------------------------------------------------------ EXCHANGE_ID

    @Test
    void fenceOpsFlagIsUndefinedInMinorVersionOneAndInval() throws Exception {
        // pynfs EID4: bit 0x4 is EXCHGID4_FLAG_SUPP_FENCE_OPS of RFC 7862, undefined in NFSv4.1
        assertThat(status(h.compound(exchangeIdOp("linux-a", 1, EXCHGID4_FLAG_SUPP_FENCE_OPS))))
                .isEqualTo(NfsStatus.INVAL);
        assertThat(h.state.clientCount()).isZero();
    }

    @Test
    void fenceOpsFlagIsAcceptedInMinorVersionTwo() throws Exception {
        nfs_resop4 result = new nfs_resop4(nfs_opnum4.OP_EXCHANGE_ID, 0, null);

        new OperationEXCHANGE_ID().process(contextOfMinorVersion(2),
                exchangeIdOp("linux-a", 1, EXCHGID4_FLAG_SUPP_FENCE_OPS), result);

        assertThat(result.body).isInstanceOf(EXCHANGE_ID4resok.class);
        assertThat(h.state.clientCount()).isEqualTo(1);
    }

    @Test
    void flagsNfsv41DefinesAreAccepted() throws Exception {
        int flags = EXCHGID4_FLAG_SUPP_MOVED_REFER | EXCHGID4_FLAG_SUPP_MOVED_MIGR | EXCHGID4_FLAG_BIND_PRINC_STATEID
                | EXCHGID4_FLAG_USE_NON_PNFS;

        assertThat(status(h.compound(exchangeIdOp("linux-a", 1, flags)))).isEqualTo(NfsStatus.OK);
    }

    // ------------------------------------------------------------------ CREATE_SESSION

    @Test
    void createSessionWithUndefinedFlagIsInvalAndLeavesTheSequenceUnused() throws Exception {
        // pynfs CSESS15 sends flags 0xf; 0x8 is not defined by RFC 8881 18.36
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);
        nfs_argop4 op = createSessionOp(eid.eir_clientid, eid.eir_sequenceid);
        ((CREATE_SESSION4args) op.args).csa_flags = 0xf;

        assertThat(status(h.compound(op))).isEqualTo(NfsStatus.INVAL);
        assertThat(status(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid)))).isEqualTo(NfsStatus.OK);
    }

    @Test
    void backChannelOfTenByteRequestsAndOneOperationIsTooSmallAndLeavesTheSequenceUnused() throws Exception {
        // pynfs CSESS29 asks for this back channel (without CONN_BACK_CHAN) many times, then succeeds
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);
        for (int i = 0; i < 3; i++) {
            nfs_argop4 op = createSessionOp(eid.eir_clientid, eid.eir_sequenceid);
            CREATE_SESSION4args args = (CREATE_SESSION4args) op.args;
            args.csa_flags = 0;
            args.csa_back_chan_attrs = attrs(10, 8192, 1, 8);

            assertThat(status(h.compound(op))).isEqualTo(NfsStatus.TOOSMALL);
        }
        assertThat(h.state.clientCount()).isEqualTo(1);
        assertThat(status(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid)))).isEqualTo(NfsStatus.OK);
    }

    @Test
    void backChannelOfOneOperationOrNoSlotOrTinyRepliesIsTooSmall() throws Exception {
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);

        assertThat(status(h.compound(withBackChannel(eid, 4096, 4096, 1, 1)))).isEqualTo(NfsStatus.TOOSMALL);
        assertThat(status(h.compound(withBackChannel(eid, 4096, 4096, 2, 0)))).isEqualTo(NfsStatus.TOOSMALL);
        assertThat(status(h.compound(withBackChannel(eid, 4096, 100, 2, 1)))).isEqualTo(NfsStatus.TOOSMALL);
    }

    @Test
    void backChannelsRealClientsOfferAreAccepted() throws Exception {
        // Linux, nfs-rs and nfs4fs offer two operations on one slot in at least a page
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);

        CREATE_SESSION4resok res =
                body(h.compound(withBackChannel(eid, 4096, 4096, 2, 1)), 0, CREATE_SESSION4resok.class);

        assertThat(res.csr_back_chan_attrs.ca_maxoperations).isEqualTo(2);
        assertThat(res.csr_back_chan_attrs.ca_maxrequests).isEqualTo(1);
    }

    private static nfs_argop4 withBackChannel(EXCHANGE_ID4resok eid, int maxRequest, int maxResponse, int maxOps,
            int maxRequests) {
        nfs_argop4 op = createSessionOp(eid.eir_clientid, eid.eir_sequenceid);
        ((CREATE_SESSION4args) op.args).csa_back_chan_attrs = attrs(maxRequest, maxResponse, maxOps, maxRequests);
        return op;
    }

    private CompoundContext contextOfMinorVersion(int minorVersion) {
        return CompoundContext.builder()
                .server(h.server)
                .minorVersion(minorVersion)
                .credential(Credential.ROOT)
                .clientAddress(InetAddress.getLoopbackAddress())
                .connection(h.connection)
                .build();
    }
}
