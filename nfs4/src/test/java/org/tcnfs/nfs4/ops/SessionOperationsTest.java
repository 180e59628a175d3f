package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.nfs4.ops.SessionHarness.*;
import static org.tcnfs.nfs4.xdr.EXCHANGE_ID4args.*;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.state.NfsSession;
import org.tcnfs.nfs4.state.SessionId;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.status.StaleClientIdException;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.xdr.BACKCHANNEL_CTL4args;
import org.tcnfs.nfs4.xdr.BIND_CONN_TO_SESSION4resok;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4args;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4resok;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4args;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4resok;
import org.tcnfs.nfs4.xdr.SEQUENCE4resok;
import org.tcnfs.nfs4.xdr.XdrRoundTrip;
import org.tcnfs.nfs4.xdr.channel_dir_from_client4;
import org.tcnfs.nfs4.xdr.channel_dir_from_server4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.sessionid4;
import org.tcnfs.nfs4.xdr.ssv_sp_parms4;
import org.tcnfs.nfs4.xdr.state_protect_how4;
import org.tcnfs.nfs4.xdr.state_protect_ops4;

/** EXCHANGE_ID, CREATE_SESSION, SEQUENCE and the other session operations, through the real engine. */
class SessionOperationsTest {
    private final SessionHarness h = new SessionHarness();

    @AfterEach
    void close() {
        h.close();
    }

    // ------------------------------------------------------------------ EXCHANGE_ID (RFC 8881 18.35.5)

    @Test
    void exchangeIdOfNewOwnerMakesUnconfirmedNonPnfsClient() throws Exception {
        EXCHANGE_ID4resok res = h.exchangeId("linux-a", 1);

        assertThat(res.eir_flags & EXCHGID4_FLAG_CONFIRMED_R).isZero();
        assertThat(res.eir_flags & EXCHGID4_FLAG_MASK_PNFS).isEqualTo(EXCHGID4_FLAG_USE_NON_PNFS);
        assertThat(res.eir_state_protect.spr_how).isEqualTo(state_protect_how4.SP4_NONE);
        assertThat(new String(res.eir_server_owner.so_major_id, StandardCharsets.UTF_8)).startsWith("tcnfs@");
        assertThat(res.eir_server_scope).isEqualTo(res.eir_server_owner.so_major_id);
        assertThat(res.eir_server_impl_id).hasSize(1);
        assertThat(res.eir_server_impl_id[0].nii_name).startsWith("tcnfs");
        assertThatThrownBy(() -> h.state.client(res.eir_clientid)).isInstanceOf(StaleClientIdException.class);
    }

    @Test
    void exchangeIdAgainAfterConfirmationReturnsSameConfirmedClient() throws Exception {
        EXCHANGE_ID4resok first = h.exchangeId("linux-a", 1);
        body(h.compound(createSessionOp(first.eir_clientid, first.eir_sequenceid)), 0, CREATE_SESSION4resok.class);

        EXCHANGE_ID4resok again = h.exchangeId("linux-a", 1);

        assertThat(again.eir_clientid).isEqualTo(first.eir_clientid);
        assertThat(again.eir_flags & EXCHGID4_FLAG_CONFIRMED_R).isNotZero();
        assertThat(h.state.client(first.eir_clientid).isConfirmed()).isTrue();
    }

    @Test
    void exchangeIdOfUnconfirmedOwnerReplacesTheRecord() throws Exception {
        EXCHANGE_ID4resok first = h.exchangeId("linux-a", 1);
        EXCHANGE_ID4resok second = h.exchangeId("linux-a", 1);

        assertThat(second.eir_clientid).isNotEqualTo(first.eir_clientid);
        assertThat(status(h.compound(createSessionOp(first.eir_clientid, first.eir_sequenceid))))
                .isEqualTo(NfsStatus.STALE_CLIENTID);
        assertThat(status(h.compound(createSessionOp(second.eir_clientid, second.eir_sequenceid))))
                .isEqualTo(NfsStatus.OK);
    }

    @Test
    void clientRestartGetsNewClientAndConfirmingItDropsTheOld() throws Exception {
        EXCHANGE_ID4resok before = h.exchangeId("linux-a", 1);
        CREATE_SESSION4resok oldSession =
                body(h.compound(createSessionOp(before.eir_clientid, before.eir_sequenceid)), 0, CREATE_SESSION4resok.class);

        EXCHANGE_ID4resok after = h.exchangeId("linux-a", 2);
        assertThat(after.eir_clientid).isNotEqualTo(before.eir_clientid);
        assertThat(after.eir_flags & EXCHGID4_FLAG_CONFIRMED_R).isZero();
        // the old record lives on until the new one is confirmed
        assertThat(status(h.compound(sequenceOp(oldSession.csr_sessionid, 1, 0, false)))).isEqualTo(NfsStatus.OK);

        body(h.compound(createSessionOp(after.eir_clientid, after.eir_sequenceid)), 0, CREATE_SESSION4resok.class);

        assertThat(status(h.compound(sequenceOp(oldSession.csr_sessionid, 2, 0, false)))).isEqualTo(NfsStatus.BADSESSION);
        assertThatThrownBy(() -> h.state.client(before.eir_clientid)).isInstanceOf(StaleClientIdException.class);
        assertThat(h.state.client(after.eir_clientid).isConfirmed()).isTrue();
    }

    @Test
    void exchangeIdOfConfirmedOwnerByAnotherPrincipalIsClidInUse() throws Exception {
        h.newSession("linux-a");

        COMPOUND4res res = h.compound(ALICE, 0, exchangeIdOp("linux-a", 1, 0));

        assertThat(status(res)).isEqualTo(NfsStatus.CLID_INUSE);
    }

    @Test
    void exchangeIdByAnotherPrincipalTakesOverAnOwnerWhoseLeaseRanOut() throws Exception {
        CREATE_SESSION4resok old = h.newSession("linux-a");
        h.clock.advance(h.limits.lease().plusSeconds(1));

        COMPOUND4res res = h.compound(ALICE, 0, exchangeIdOp("linux-a", 1, 0));

        assertThat(status(res)).isEqualTo(NfsStatus.OK);
        assertThat(status(h.compound(sequenceOp(old.csr_sessionid, 1, 0, false)))).isEqualTo(NfsStatus.BADSESSION);
    }

    @Test
    void updateOfConfirmedRecordReturnsIt() throws Exception {
        EXCHANGE_ID4resok first = h.exchangeId("linux-a", 1);
        h.compound(createSessionOp(first.eir_clientid, first.eir_sequenceid));

        EXCHANGE_ID4resok upd = body(h.compound(exchangeIdOp("linux-a", 1, EXCHGID4_FLAG_UPD_CONFIRMED_REC_A)),
                0, EXCHANGE_ID4resok.class);

        assertThat(upd.eir_clientid).isEqualTo(first.eir_clientid);
        assertThat(upd.eir_flags & EXCHGID4_FLAG_CONFIRMED_R).isNotZero();
    }

    @Test
    void updateWithoutConfirmedRecordIsNoEnt() throws Exception {
        h.exchangeId("linux-a", 1);

        COMPOUND4res res = h.compound(exchangeIdOp("linux-a", 1, EXCHGID4_FLAG_UPD_CONFIRMED_REC_A));

        assertThat(status(res)).isEqualTo(NfsStatus.NOENT);
    }

    @Test
    void updateWithAnotherVerifierIsNotSame() throws Exception {
        h.newSession("linux-a");

        COMPOUND4res res = h.compound(exchangeIdOp("linux-a", 9, EXCHGID4_FLAG_UPD_CONFIRMED_REC_A));

        assertThat(status(res)).isEqualTo(NfsStatus.NOT_SAME);
    }

    @Test
    void updateByAnotherPrincipalIsPerm() throws Exception {
        h.newSession("linux-a");

        COMPOUND4res res = h.compound(ALICE, 0, exchangeIdOp("linux-a", 1, EXCHGID4_FLAG_UPD_CONFIRMED_REC_A));

        assertThat(status(res)).isEqualTo(NfsStatus.PERM);
    }

    @Test
    void machineCredentialProtectionIsNotSupp() throws Exception {
        nfs_argop4 op = exchangeIdOp("linux-a", 1, 0);
        EXCHANGE_ID4args args = (EXCHANGE_ID4args) op.args;
        args.eia_state_protect.spa_how = state_protect_how4.SP4_MACH_CRED;
        args.eia_state_protect.spa_mach_ops = new state_protect_ops4();

        assertThat(status(h.compound(op))).isEqualTo(NfsStatus.NOTSUPP);
        assertThat(h.state.clientCount()).isZero();
    }

    @Test
    void ssvProtectionIsEncrAlgUnsupp() throws Exception {
        nfs_argop4 op = exchangeIdOp("linux-a", 1, 0);
        EXCHANGE_ID4args args = (EXCHANGE_ID4args) op.args;
        args.eia_state_protect.spa_how = state_protect_how4.SP4_SSV;
        args.eia_state_protect.spa_ssv_parms = new ssv_sp_parms4();

        assertThat(status(h.compound(op))).isEqualTo(NfsStatus.ENCR_ALG_UNSUPP);
    }

    @Test
    void undefinedFlagOrClientSetConfirmedFlagIsInval() throws Exception {
        assertThat(status(h.compound(exchangeIdOp("linux-a", 1, 0x00001000)))).isEqualTo(NfsStatus.INVAL);
        assertThat(status(h.compound(exchangeIdOp("linux-a", 1, EXCHGID4_FLAG_CONFIRMED_R)))).isEqualTo(NfsStatus.INVAL);
        assertThat(h.state.clientCount()).isZero();
    }

    @Test
    void exchangeIdWithAnotherOperationIsNotOnlyOp() throws Exception {
        COMPOUND4res res = h.compound(exchangeIdOp("linux-a", 1, 0), putRootOp());

        assertThat(status(res)).isEqualTo(NfsStatus.NOT_ONLY_OP);
    }

    // ------------------------------------------------------------------ CREATE_SESSION (RFC 8881 18.36)

    @Test
    void createSessionForUnknownClientIsStaleClientId() throws Exception {
        assertThat(status(h.compound(createSessionOp(0x1234L, 1)))).isEqualTo(NfsStatus.STALE_CLIENTID);
    }

    @Test
    void createSessionWithWrongSequenceIsMisorderedAndChangesNothing() throws Exception {
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);

        assertThat(status(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid + 1))))
                .isEqualTo(NfsStatus.SEQ_MISORDERED);
        assertThat(status(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid - 1))))
                .isEqualTo(NfsStatus.SEQ_MISORDERED);
        assertThat(status(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid)))).isEqualTo(NfsStatus.OK);
    }

    @Test
    void retransmittedCreateSessionIsAnsweredFromItsCache() throws Exception {
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);
        CREATE_SESSION4resok first =
                body(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid)), 0, CREATE_SESSION4resok.class);

        CREATE_SESSION4resok replay =
                body(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid)), 0, CREATE_SESSION4resok.class);
        CREATE_SESSION4resok next =
                body(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid + 1)), 0, CREATE_SESSION4resok.class);

        assertThat(replay.csr_sessionid.value).isEqualTo(first.csr_sessionid.value);
        assertThat(replay.csr_sequence).isEqualTo(eid.eir_sequenceid);
        assertThat(next.csr_sessionid.value).isNotEqualTo(first.csr_sessionid.value);
        assertThat(h.state.client(eid.eir_clientid).sessions()).hasSize(2);
        assertThat(status(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid + 3))))
                .isEqualTo(NfsStatus.SEQ_MISORDERED);
    }

    @Test
    void createSessionByAnotherPrincipalIsClidInUse() throws Exception {
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);

        COMPOUND4res res = h.compound(ALICE, 0, createSessionOp(eid.eir_clientid, eid.eir_sequenceid));

        assertThat(status(res)).isEqualTo(NfsStatus.CLID_INUSE);
    }

    @Test
    void foreChannelIsCappedByServerLimitsAndTheAskedBackChannelIsGranted() throws Exception {
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);

        CREATE_SESSION4resok res = body(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid,
                attrs(64 << 20, 64 << 20, 100_000, 10_000))), 0, CREATE_SESSION4resok.class);

        assertThat(res.csr_fore_chan_attrs.ca_maxoperations).isEqualTo(4096);
        assertThat(res.csr_fore_chan_attrs.ca_maxrequestsize).isGreaterThanOrEqualTo(16 << 20)
                .isEqualTo(NfsLimits.DEFAULTS.maxRequestBytes());
        assertThat(res.csr_fore_chan_attrs.ca_maxresponsesize).isEqualTo(NfsLimits.DEFAULTS.maxResponseBytes());
        assertThat(res.csr_fore_chan_attrs.ca_maxrequests).isEqualTo(NfsLimits.DEFAULTS.maxSessionSlots());
        assertThat(res.csr_fore_chan_attrs.ca_headerpadsize).isZero();
        assertThat(res.csr_flags).isEqualTo(CREATE_SESSION4args.CREATE_SESSION4_FLAG_CONN_BACK_CHAN);
        assertThat(res.csr_back_chan_attrs.ca_maxrequests).isEqualTo(1);
    }

    @Test
    void foreChannelKeepsSmallerClientLimits() throws Exception {
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);

        CREATE_SESSION4resok res = body(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid,
                attrs(8192, 16384, 8, 2))), 0, CREATE_SESSION4resok.class);

        assertThat(res.csr_fore_chan_attrs.ca_maxrequestsize).isEqualTo(8192);
        assertThat(res.csr_fore_chan_attrs.ca_maxresponsesize).isEqualTo(16384);
        assertThat(res.csr_fore_chan_attrs.ca_maxresponsesize_cached).isEqualTo(16384);
        assertThat(res.csr_fore_chan_attrs.ca_maxoperations).isEqualTo(8);
        assertThat(res.csr_fore_chan_attrs.ca_maxrequests).isEqualTo(2);
    }

    @Test
    void foreChannelWithoutSlotsIsTooSmallAndLeavesClientUnconfirmed() throws Exception {
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);

        assertThat(status(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid, attrs(8192, 8192, 8, 0)))))
                .isEqualTo(NfsStatus.TOOSMALL);
        assertThat(status(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid, attrs(100, 8192, 8, 4)))))
                .isEqualTo(NfsStatus.TOOSMALL);
        assertThatThrownBy(() -> h.state.client(eid.eir_clientid)).isInstanceOf(StaleClientIdException.class);
    }

    // ------------------------------------------------------------------ SEQUENCE (RFC 8881 18.46, 2.10.6)

    @Test
    void firstSequenceOnSlotIsOneAndReportsSlots() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");

        COMPOUND4res res = h.compound(sequenceOp(s.csr_sessionid, 1, 3, false), putRootOp());

        SEQUENCE4resok seq = body(res, 0, SEQUENCE4resok.class);
        assertThat(status(res)).isEqualTo(NfsStatus.OK);
        assertThat(seq.sr_sessionid.value).isEqualTo(s.csr_sessionid.value);
        assertThat(seq.sr_sequenceid).isEqualTo(1);
        assertThat(seq.sr_slotid).isEqualTo(3);
        assertThat(seq.sr_highest_slotid).isEqualTo(7);
        assertThat(seq.sr_target_highest_slotid).isEqualTo(7);
        assertThat(seq.sr_status_flags).isZero();
    }

    @Test
    void retransmissionIsAnsweredFromCacheWithoutRunningAgain() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");
        COMPOUND4res first = h.rawCompound(Credential.ROOT, 0, sequenceOp(s.csr_sessionid, 1, 0, true), putRootOp());
        assertThat(h.putRootRuns).hasValue(1);

        COMPOUND4res again = h.rawCompound(Credential.ROOT, 0, sequenceOp(s.csr_sessionid, 1, 0, true), putRootOp());

        assertThat(h.putRootRuns).hasValue(1);
        assertThat(XdrRoundTrip.encode(again)).isEqualTo(XdrRoundTrip.encode(first));
        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 2, 0, true), putRootOp()))).isEqualTo(NfsStatus.OK);
        assertThat(h.putRootRuns).hasValue(2);
    }

    @Test
    void retransmissionOfSmallUncachedCompoundIsStillAnsweredFromCacheAndDoesNotRun() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");
        h.compound(sequenceOp(s.csr_sessionid, 1, 0, false), putRootOp());

        COMPOUND4res again = h.compound(sequenceOp(s.csr_sessionid, 1, 0, false), putRootOp());

        assertThat(status(again)).isEqualTo(NfsStatus.OK);
        assertThat(again.resarray).hasSize(2);
        assertThat(h.putRootRuns).hasValue(1);
    }



    @Test
    void retransmissionOfSequenceAloneIsAnsweredEvenWithoutCacheThis() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");
        h.compound(sequenceOp(s.csr_sessionid, 1, 0, false));

        COMPOUND4res again = h.compound(sequenceOp(s.csr_sessionid, 1, 0, false));

        assertThat(status(again)).isEqualTo(NfsStatus.OK);
        assertThat(body(again, 0, SEQUENCE4resok.class).sr_sequenceid).isEqualTo(1);
    }

    @Test
    void misorderedSequenceIdIsRefusedAndDoesNotRun() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");
        h.compound(sequenceOp(s.csr_sessionid, 1, 0, true));

        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 3, 0, true), putRootOp())))
                .isEqualTo(NfsStatus.SEQ_MISORDERED);
        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 0, 0, true), putRootOp())))
                .isEqualTo(NfsStatus.SEQ_MISORDERED);
        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 1, 1, true), putRootOp())))
                .as("a fresh slot starts at sequence 1").isEqualTo(NfsStatus.OK);
        assertThat(h.putRootRuns).hasValue(1);
    }

    @Test
    void slotBeyondTheTableIsBadSlot() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");

        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 1, 8, true)))).isEqualTo(NfsStatus.BADSLOT);
        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 1, -1, true)))).isEqualTo(NfsStatus.BADSLOT);
    }

    @Test
    void unknownSessionIsBadSession() throws Exception {
        COMPOUND4res res = h.compound(sequenceOp(new sessionid4(new byte[16]), 1, 0, true), putRootOp());

        assertThat(status(res)).isEqualTo(NfsStatus.BADSESSION);
        assertThat(h.putRootRuns).hasValue(0);
    }

    @Test
    void compoundWithMoreOperationsThanNegotiatedIsTooManyOps() throws Exception {
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);
        CREATE_SESSION4resok s = body(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid,
                attrs(1 << 20, 1 << 20, 3, 4))), 0, CREATE_SESSION4resok.class);

        COMPOUND4res tooMany = h.compound(sequenceOp(s.csr_sessionid, 1, 0, true), putRootOp(), putRootOp(), putRootOp());
        COMPOUND4res fits = h.compound(sequenceOp(s.csr_sessionid, 1, 0, true), putRootOp(), putRootOp());

        assertThat(status(tooMany)).isEqualTo(NfsStatus.TOO_MANY_OPS);
        assertThat(status(fits)).as("the refused request did not use the slot").isEqualTo(NfsStatus.OK);
        assertThat(h.putRootRuns).hasValue(2);
    }

    @Test
    void requestLargerThanNegotiatedIsReqTooBig() throws Exception {
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);
        CREATE_SESSION4resok s = body(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid,
                attrs(4096, 1 << 20, 16, 4))), 0, CREATE_SESSION4resok.class);

        COMPOUND4res res = h.compound(Credential.ROOT, 4097, sequenceOp(s.csr_sessionid, 1, 0, true), putRootOp());

        assertThat(status(res)).isEqualTo(NfsStatus.REQ_TOO_BIG);
        assertThat(h.putRootRuns).hasValue(0);
    }

    @Test
    void requestOnSlotWhosePreviousRequestStillRunsIsDelay() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");
        AtomicReference<COMPOUND4res> retransmitted = new AtomicReference<>();
        AtomicReference<COMPOUND4res> next = new AtomicReference<>();
        h.duringPutRoot = () -> {
            retransmitted.set(h.compound(sequenceOp(s.csr_sessionid, 1, 0, true), putRootOp()));
            next.set(h.compound(sequenceOp(s.csr_sessionid, 2, 0, true), putRootOp()));
        };

        COMPOUND4res first = h.compound(sequenceOp(s.csr_sessionid, 1, 0, true), putRootOp());

        assertThat(status(first)).isEqualTo(NfsStatus.OK);
        assertThat(status(retransmitted.get())).isEqualTo(NfsStatus.DELAY);
        assertThat(status(next.get())).isEqualTo(NfsStatus.DELAY);
        assertThat(h.putRootRuns).hasValue(1);
    }

    @Test
    void sequenceMustComeFirst() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");

        assertThat(status(h.compound(putRootOp()))).isEqualTo(NfsStatus.OP_NOT_IN_SESSION);
        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 1, 0, true), sequenceOp(s.csr_sessionid, 2, 1, true))))
                .isEqualTo(NfsStatus.SEQUENCE_POS);
    }

    @Test
    void laterOperationsRunInTheSequencesSession() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");

        h.compound(sequenceOp(s.csr_sessionid, 1, 0, true), putRootOp());

        NfsSession seen = h.sessionSeenByPutRoot.get();
        assertThat(seen.id()).isEqualTo(new SessionId(s.csr_sessionid.value));
        assertThat(seen.client().isConfirmed()).isTrue();
        assertThat(seen.foreChannel().maxRequests()).isEqualTo(8);
    }

    // ------------------------------------------------------------------ leases (RFC 8881 8.3)

    @Test
    void leaseExpiryReleasesTheClient() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");
        long clientId = h.state.session(new SessionId(s.csr_sessionid.value)).client().clientId();

        h.clock.advance(h.limits.lease().minusSeconds(1));
        assertThat(h.state.reapExpired()).isZero();
        h.clock.advance(Duration.ofSeconds(2));

        assertThat(h.state.reapExpired()).isEqualTo(1);
        assertThatThrownBy(() -> h.state.client(clientId)).isInstanceOf(StaleClientIdException.class);
        assertThat(h.state.clientCount()).isZero();
        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 1, 0, true)))).isEqualTo(NfsStatus.BADSESSION);
    }

    @Test
    void everySequenceRenewsTheLease() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");
        Duration twoThirds = h.limits.lease().multipliedBy(2).dividedBy(3);
        for (int seq = 1; seq <= 3; seq++) {
            h.clock.advance(twoThirds);
            assertThat(status(h.compound(sequenceOp(s.csr_sessionid, seq, 0, false)))).isEqualTo(NfsStatus.OK);
            assertThat(h.state.reapExpired()).isZero();
        }
    }

    @Test
    void sequenceAfterLeaseRanOutIsBadSessionEvenBeforeTheReaperRuns() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");
        h.clock.advance(h.limits.lease().plusSeconds(1));

        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 1, 0, true), putRootOp()))).isEqualTo(NfsStatus.BADSESSION);
        assertThat(h.state.clientCount()).isZero();
        assertThat(h.putRootRuns).hasValue(0);
    }

    @Test
    void unconfirmedClientExpiresAfterALease() throws Exception {
        h.exchangeId("linux-a", 1);
        h.clock.advance(h.limits.lease().plusSeconds(1));

        assertThat(h.state.reapExpired()).isEqualTo(1);
        assertThat(h.state.clientCount()).isZero();
    }

    // ------------------------------------------------------------------ DESTROY_SESSION, DESTROY_CLIENTID

    @Test
    void destroyClientIdWithSessionsIsBusyAndAfterDestroySessionSucceeds() throws Exception {
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);
        CREATE_SESSION4resok s =
                body(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid)), 0, CREATE_SESSION4resok.class);

        assertThat(status(h.compound(destroyClientIdOp(eid.eir_clientid)))).isEqualTo(NfsStatus.CLIENTID_BUSY);
        assertThat(status(h.compound(destroySessionOp(s.csr_sessionid)))).isEqualTo(NfsStatus.OK);
        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 1, 0, true)))).isEqualTo(NfsStatus.BADSESSION);
        assertThat(status(h.compound(destroyClientIdOp(eid.eir_clientid)))).isEqualTo(NfsStatus.OK);

        assertThat(h.state.clientCount()).isZero();
        assertThat(status(h.compound(destroyClientIdOp(eid.eir_clientid)))).isEqualTo(NfsStatus.STALE_CLIENTID);
    }

    @Test
    void destroySessionOfUnknownSessionIsBadSession() throws Exception {
        assertThat(status(h.compound(destroySessionOp(new sessionid4(new byte[16]))))).isEqualTo(NfsStatus.BADSESSION);
    }

    @Test
    void destroyingOwnSessionMustBeTheLastOperation() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");

        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 1, 0, true), destroySessionOp(s.csr_sessionid),
                putRootOp()))).isEqualTo(NfsStatus.NOT_ONLY_OP);
        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 2, 0, true), destroySessionOp(s.csr_sessionid))))
                .isEqualTo(NfsStatus.OK);
        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 3, 0, true)))).isEqualTo(NfsStatus.BADSESSION);
    }

    // ------------------------------------------------------------------ BIND_CONN_TO_SESSION, BACKCHANNEL_CTL

    @Test
    void bindConnToSessionRecordsTheConnection() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");

        BIND_CONN_TO_SESSION4resok res = body(h.compound(bindConnOp(s.csr_sessionid,
                channel_dir_from_client4.CDFC4_FORE_OR_BOTH)), 0, BIND_CONN_TO_SESSION4resok.class);

        assertThat(res.bctsr_dir).isEqualTo(channel_dir_from_server4.CDFS4_BOTH);
        assertThat(res.bctsr_sessid.value).isEqualTo(s.csr_sessionid.value);
        assertThat(h.state.session(new SessionId(s.csr_sessionid.value)).connections()).containsExactly(h.connection);
    }

    @Test
    void bindConnToUnknownSessionOrBadDirectionFails() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");

        assertThat(status(h.compound(bindConnOp(new sessionid4(new byte[16]), channel_dir_from_client4.CDFC4_FORE))))
                .isEqualTo(NfsStatus.BADSESSION);
        assertThat(status(h.compound(bindConnOp(s.csr_sessionid, 5)))).isEqualTo(NfsStatus.INVAL);
    }

    @Test
    void backchannelCtlIsAcceptedAndRecordsTheProgram() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");
        BACKCHANNEL_CTL4args args = new BACKCHANNEL_CTL4args();
        args.bca_cb_program = 0x40000123;

        COMPOUND4res res = h.compound(sequenceOp(s.csr_sessionid, 1, 0, true),
                new nfs_argop4(nfs_opnum4.OP_BACKCHANNEL_CTL, args));

        assertThat(status(res)).isEqualTo(NfsStatus.OK);
        assertThat(h.state.session(new SessionId(s.csr_sessionid.value)).callbackProgram()).isEqualTo(0x40000123);
    }

    // ------------------------------------------------------------------ RECLAIM_COMPLETE (RFC 8881 18.51)

    @Test
    void secondReclaimCompleteIsCompleteAlready() throws Exception {
        CREATE_SESSION4resok s = h.newSession("linux-a");

        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 1, 0, true), reclaimCompleteOp()))).isEqualTo(NfsStatus.OK);
        assertThat(status(h.compound(sequenceOp(s.csr_sessionid, 2, 0, true), reclaimCompleteOp())))
                .isEqualTo(NfsStatus.COMPLETE_ALREADY);
        assertThat(h.state.session(new SessionId(s.csr_sessionid.value)).client().reclaimComplete()).isTrue();
    }

    @Test
    void reclaimCompleteOutsideSessionIsOpNotInSession() throws Exception {
        assertThat(status(h.compound(reclaimCompleteOp()))).isEqualTo(NfsStatus.OP_NOT_IN_SESSION);
    }
}
