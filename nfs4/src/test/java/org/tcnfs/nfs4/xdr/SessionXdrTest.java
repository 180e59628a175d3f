package org.tcnfs.nfs4.xdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.nfs4.xdr.XdrRoundTrip.decode;
import static org.tcnfs.nfs4.xdr.XdrRoundTrip.ints;
import static org.tcnfs.nfs4.xdr.XdrRoundTrip.roundTrip;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.junit.jupiter.api.Test;

/** Round trips of the session wire types (RFC 5662), and their decoding bounds. */
class SessionXdrTest {

    private static byte[] sessionId(int seed) {
        byte[] b = new byte[16];
        for (int i = 0; i < 16; i++) {
            b[i] = (byte) (seed + i);
        }
        return b;
    }

    private static channel_attrs4 attrs(int base, int... ird) {
        channel_attrs4 a = new channel_attrs4();
        a.ca_headerpadsize = base;
        a.ca_maxrequestsize = base + 1;
        a.ca_maxresponsesize = base + 2;
        a.ca_maxresponsesize_cached = base + 3;
        a.ca_maxoperations = base + 4;
        a.ca_maxrequests = base + 5;
        a.ca_rdma_ird = ird;
        return a;
    }

    private static void assertAttrs(channel_attrs4 a, int base) {
        assertThat(new int[] {a.ca_headerpadsize, a.ca_maxrequestsize, a.ca_maxresponsesize,
            a.ca_maxresponsesize_cached, a.ca_maxoperations, a.ca_maxrequests})
                .containsExactly(base, base + 1, base + 2, base + 3, base + 4, base + 5);
    }

    @Test
    void exchangeIdArgsRoundTrip() throws Exception {
        EXCHANGE_ID4args a = new EXCHANGE_ID4args();
        a.eia_clientowner = new client_owner4(new verifier4(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}),
                "Linux NFSv4.1 host".getBytes(StandardCharsets.UTF_8));
        a.eia_flags = EXCHANGE_ID4args.EXCHGID4_FLAG_UPD_CONFIRMED_REC_A | EXCHANGE_ID4args.EXCHGID4_FLAG_USE_NON_PNFS;
        a.eia_state_protect.spa_how = state_protect_how4.SP4_MACH_CRED;
        a.eia_state_protect.spa_mach_ops = new state_protect_ops4();
        a.eia_state_protect.spa_mach_ops.spo_must_enforce = new bitmap4(new int[] {1 << 20});
        a.eia_state_protect.spa_mach_ops.spo_must_allow = new bitmap4(new int[] {3, 4});
        a.eia_client_impl_id = new nfs_impl_id4[] {new nfs_impl_id4("kernel.org", "Linux 6.1", new nfstime4(17, 3))};

        EXCHANGE_ID4args b = roundTrip(a, new EXCHANGE_ID4args());

        assertThat(b.eia_clientowner.co_verifier.value).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(new String(b.eia_clientowner.co_ownerid, StandardCharsets.UTF_8)).isEqualTo("Linux NFSv4.1 host");
        assertThat(b.eia_flags).isEqualTo(a.eia_flags);
        assertThat(b.eia_state_protect.spa_mach_ops.spo_must_allow.value).containsExactly(3, 4);
        assertThat(b.eia_client_impl_id[0].nii_name).isEqualTo("Linux 6.1");
        assertThat(b.eia_client_impl_id[0].nii_date.seconds).isEqualTo(17);
    }

    @Test
    void stateProtectSsvArgsRoundTrip() throws Exception {
        state_protect4_a a = new state_protect4_a();
        a.spa_how = state_protect_how4.SP4_SSV;
        a.spa_ssv_parms = new ssv_sp_parms4();
        a.spa_ssv_parms.ssp_hash_algs = new byte[][] {{6, 9, 42}, {1}};
        a.spa_ssv_parms.ssp_encr_algs = new byte[][] {{7}};
        a.spa_ssv_parms.ssp_window = 16;
        a.spa_ssv_parms.ssp_num_gss_handles = 2;

        state_protect4_a b = roundTrip(a, new state_protect4_a());

        assertThat(b.spa_ssv_parms.ssp_hash_algs[0]).containsExactly(6, 9, 42);
        assertThat(b.spa_ssv_parms.ssp_hash_algs[1]).containsExactly(1);
        assertThat(b.spa_ssv_parms.ssp_window).isEqualTo(16);
    }

    @Test
    void exchangeIdResultRoundTrip() throws Exception {
        EXCHANGE_ID4resok r = new EXCHANGE_ID4resok();
        r.eir_clientid = 0x1122334455667788L;
        r.eir_sequenceid = 7;
        r.eir_flags = EXCHANGE_ID4args.EXCHGID4_FLAG_CONFIRMED_R | EXCHANGE_ID4args.EXCHGID4_FLAG_USE_NON_PNFS;
        r.eir_server_owner = new server_owner4(5, "tcnfs@host".getBytes(StandardCharsets.UTF_8));
        r.eir_server_scope = "scope".getBytes(StandardCharsets.UTF_8);
        r.eir_server_impl_id = new nfs_impl_id4[] {new nfs_impl_id4("tcnfs.org", "tcnfs", new nfstime4())};

        EXCHANGE_ID4resok b = roundTrip(r, new EXCHANGE_ID4resok());

        assertThat(b.eir_clientid).isEqualTo(0x1122334455667788L);
        assertThat(b.eir_flags).isEqualTo(r.eir_flags);
        assertThat(b.eir_state_protect.spr_how).isEqualTo(state_protect_how4.SP4_NONE);
        assertThat(b.eir_server_owner.so_minor_id).isEqualTo(5);
        assertThat(b.eir_server_scope).isEqualTo(r.eir_server_scope);
    }

    @Test
    void stateProtectSsvResultRoundTrip() throws Exception {
        state_protect4_r r = new state_protect4_r();
        r.spr_how = state_protect_how4.SP4_SSV;
        r.spr_ssv_info = new ssv_prot_info4();
        r.spr_ssv_info.spi_hash_alg = 1;
        r.spr_ssv_info.spi_encr_alg = 2;
        r.spr_ssv_info.spi_ssv_len = 32;
        r.spr_ssv_info.spi_window = 4;
        r.spr_ssv_info.spi_handles = new byte[][] {{9, 9}};

        state_protect4_r b = roundTrip(r, new state_protect4_r());

        assertThat(b.spr_ssv_info.spi_ssv_len).isEqualTo(32);
        assertThat(b.spr_ssv_info.spi_handles[0]).containsExactly(9, 9);
    }

    @Test
    void createSessionArgsRoundTrip() throws Exception {
        CREATE_SESSION4args a = new CREATE_SESSION4args();
        a.csa_clientid = -2;
        a.csa_sequence = 1;
        a.csa_flags = CREATE_SESSION4args.CREATE_SESSION4_FLAG_CONN_BACK_CHAN;
        a.csa_fore_chan_attrs = attrs(10);
        a.csa_back_chan_attrs = attrs(20, 99);
        a.csa_cb_program = 0x40000000;
        callback_sec_parms4 none = new callback_sec_parms4();
        callback_sec_parms4 sys = new callback_sec_parms4();
        sys.cb_secflavor = callback_sec_parms4.AUTH_SYS;
        sys.cbsp_sys_cred = new authsys_parms();
        sys.cbsp_sys_cred.machinename = "client";
        sys.cbsp_sys_cred.uid = 1000;
        sys.cbsp_sys_cred.gids = new int[] {4, 24};
        callback_sec_parms4 gss = new callback_sec_parms4();
        gss.cb_secflavor = callback_sec_parms4.RPCSEC_GSS;
        gss.cbsp_gss_handles = new gss_cb_handles4();
        gss.cbsp_gss_handles.gcbp_service = 2;
        gss.cbsp_gss_handles.gcbp_handle_from_client = new byte[] {5};
        a.csa_sec_parms = new callback_sec_parms4[] {none, sys, gss};

        CREATE_SESSION4args b = roundTrip(a, new CREATE_SESSION4args());

        assertThat(b.csa_clientid).isEqualTo(-2);
        assertAttrs(b.csa_fore_chan_attrs, 10);
        assertAttrs(b.csa_back_chan_attrs, 20);
        assertThat(b.csa_back_chan_attrs.ca_rdma_ird).containsExactly(99);
        assertThat(b.csa_sec_parms).hasSize(3);
        assertThat(b.csa_sec_parms[1].cbsp_sys_cred.gids).containsExactly(4, 24);
        assertThat(b.csa_sec_parms[2].cbsp_gss_handles.gcbp_handle_from_client).containsExactly(5);
    }

    @Test
    void createSessionResultRoundTrip() throws Exception {
        CREATE_SESSION4resok r = new CREATE_SESSION4resok();
        r.csr_sessionid = new sessionid4(sessionId(3));
        r.csr_sequence = 4;
        r.csr_flags = 0;
        r.csr_fore_chan_attrs = attrs(30);
        r.csr_back_chan_attrs = attrs(40);

        CREATE_SESSION4resok b = roundTrip(r, new CREATE_SESSION4resok());

        assertThat(b.csr_sessionid.value).isEqualTo(sessionId(3));
        assertThat(b.csr_sequence).isEqualTo(4);
        assertAttrs(b.csr_fore_chan_attrs, 30);
    }

    @Test
    void sequenceArgsAndResultRoundTrip() throws Exception {
        SEQUENCE4args a = new SEQUENCE4args();
        a.sa_sessionid = new sessionid4(sessionId(1));
        a.sa_sequenceid = -1;
        a.sa_slotid = 5;
        a.sa_highest_slotid = 9;
        a.sa_cachethis = true;
        SEQUENCE4args b = roundTrip(a, new SEQUENCE4args());
        assertThat(b.sa_sessionid.value).isEqualTo(sessionId(1));
        assertThat(b.sa_sequenceid).isEqualTo(-1);
        assertThat(b.sa_slotid).isEqualTo(5);
        assertThat(b.sa_highest_slotid).isEqualTo(9);
        assertThat(b.sa_cachethis).isTrue();

        SEQUENCE4resok r = new SEQUENCE4resok();
        r.sr_sessionid = new sessionid4(sessionId(2));
        r.sr_sequenceid = 8;
        r.sr_slotid = 1;
        r.sr_highest_slotid = 63;
        r.sr_target_highest_slotid = 31;
        r.sr_status_flags = SEQUENCE4resok.SEQ4_STATUS_CB_PATH_DOWN;
        SEQUENCE4resok c = roundTrip(r, new SEQUENCE4resok());
        assertThat(c.sr_target_highest_slotid).isEqualTo(31);
        assertThat(c.sr_status_flags).isEqualTo(SEQUENCE4resok.SEQ4_STATUS_CB_PATH_DOWN);
    }

    @Test
    void destroyArgsRoundTrip() throws Exception {
        DESTROY_SESSION4args ds = new DESTROY_SESSION4args();
        ds.dsa_sessionid = new sessionid4(sessionId(7));
        assertThat(roundTrip(ds, new DESTROY_SESSION4args()).dsa_sessionid.value).isEqualTo(sessionId(7));

        DESTROY_CLIENTID4args dc = new DESTROY_CLIENTID4args();
        dc.dca_clientid = Long.MIN_VALUE + 3;
        assertThat(roundTrip(dc, new DESTROY_CLIENTID4args()).dca_clientid).isEqualTo(Long.MIN_VALUE + 3);
    }

    @Test
    void bindConnToSessionRoundTrip() throws Exception {
        BIND_CONN_TO_SESSION4args a = new BIND_CONN_TO_SESSION4args();
        a.bctsa_sessid = new sessionid4(sessionId(4));
        a.bctsa_dir = channel_dir_from_client4.CDFC4_BACK_OR_BOTH;
        a.bctsa_use_conn_in_rdma_mode = true;
        BIND_CONN_TO_SESSION4args b = roundTrip(a, new BIND_CONN_TO_SESSION4args());
        assertThat(b.bctsa_dir).isEqualTo(channel_dir_from_client4.CDFC4_BACK_OR_BOTH);
        assertThat(b.bctsa_use_conn_in_rdma_mode).isTrue();

        BIND_CONN_TO_SESSION4resok r = new BIND_CONN_TO_SESSION4resok();
        r.bctsr_sessid = new sessionid4(sessionId(5));
        r.bctsr_dir = channel_dir_from_server4.CDFS4_BOTH;
        BIND_CONN_TO_SESSION4resok c = roundTrip(r, new BIND_CONN_TO_SESSION4resok());
        assertThat(c.bctsr_dir).isEqualTo(channel_dir_from_server4.CDFS4_BOTH);
        assertThat(c.bctsr_use_conn_in_rdma_mode).isFalse();
    }

    @Test
    void reclaimCompleteAndBackchannelCtlRoundTrip() throws Exception {
        RECLAIM_COMPLETE4args rc = new RECLAIM_COMPLETE4args();
        rc.rca_one_fs = true;
        assertThat(roundTrip(rc, new RECLAIM_COMPLETE4args()).rca_one_fs).isTrue();

        BACKCHANNEL_CTL4args bc = new BACKCHANNEL_CTL4args();
        bc.bca_cb_program = 77;
        bc.bca_sec_parms = new callback_sec_parms4[] {new callback_sec_parms4()};
        BACKCHANNEL_CTL4args back = roundTrip(bc, new BACKCHANNEL_CTL4args());
        assertThat(back.bca_cb_program).isEqualTo(77);
        assertThat(back.bca_sec_parms[0].cb_secflavor).isEqualTo(callback_sec_parms4.AUTH_NONE);
    }

    @Test
    void sessionResultBodiesComeFromTheCodecTable() {
        assertThat(OperationCodecs.newResultBody(nfs_opnum4.OP_SEQUENCE, 0)).isInstanceOf(SEQUENCE4resok.class);
        assertThat(OperationCodecs.newResultBody(nfs_opnum4.OP_SEQUENCE, 10052)).isNull();
        assertThat(OperationCodecs.newArgs(nfs_opnum4.OP_EXCHANGE_ID)).isInstanceOf(EXCHANGE_ID4args.class);
        assertThat(OperationCodecs.newResultBody(nfs_opnum4.OP_DESTROY_CLIENTID, 0)).isNull();
    }

    @Test
    void moreThanOneImplementationIdIsRefused() throws Exception {
        byte[] bytes = ints(0, 0, /* ownerid */ 0, /* flags */ 0, /* SP4_NONE */ 0, /* impl ids */ 2);
        assertThatThrownBy(() -> decode(bytes, new EXCHANGE_ID4args())).isInstanceOf(OncRpcException.class);
    }

    @Test
    void unknownStateProtectionOrCallbackFlavorIsRefused() {
        assertThatThrownBy(() -> decode(ints(3), new state_protect4_a())).isInstanceOf(OncRpcException.class);
        assertThatThrownBy(() -> decode(ints(1, 390003), new BACKCHANNEL_CTL4args()))
                .isInstanceOf(OncRpcException.class);
    }

    @Test
    void overlongOwnerIdAndOversizedListsAreRefused() {
        assertThatThrownBy(() -> decode(ints(0, 0, 1025), new client_owner4())).isInstanceOf(OncRpcException.class);
        assertThatThrownBy(() -> decode(ints(1, 17), new BACKCHANNEL_CTL4args())).isInstanceOf(OncRpcException.class);
        assertThatThrownBy(() -> decode(ints(0, 0, 0, 0, 0, 0, 2), new channel_attrs4()))
                .isInstanceOf(OncRpcException.class);
    }

    @Test
    void booleanOtherThanZeroOrOneIsRefused() {
        assertThatThrownBy(() -> decode(ints(2), new RECLAIM_COMPLETE4args())).isInstanceOf(OncRpcException.class);
    }

    @Test
    void truncatedSequenceArgsAreRefused() throws Exception {
        byte[] whole = ints(1, 2, 3, 4, 5, 6, 7, 0);
        byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 4);
        assertThatThrownBy(() -> decode(cut, new SEQUENCE4args())).isInstanceOf(IOException.class);
    }
}
