package org.tcnfs.nfs4.xdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.nfs4.xdr.XdrRoundTrip.decode;
import static org.tcnfs.nfs4.xdr.XdrRoundTrip.encode;
import static org.tcnfs.nfs4.xdr.XdrRoundTrip.ints;
import static org.tcnfs.nfs4.xdr.XdrRoundTrip.roundTrip;

import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.BadXdrOncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.NfsStatus;

/** Round trips of the open, lock and stateid wire types, and their decoding bounds. */
class StateXdrTest {
    private static final byte[] OTHER = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

    private static void assertMalformed(byte[] bytes, XdrAble into) {
        assertThatThrownBy(() -> decode(bytes, into)).isInstanceOfAny(OncRpcException.class,
                BadXdrOncRpcException.class);
    }

    @Test
    void changeInfoRoundTrip() throws Exception {
        change_info4 back = roundTrip(new change_info4(true, 5, -7), new change_info4());
        assertThat(back.atomic).isTrue();
        assertThat(back.before).isEqualTo(5);
        assertThat(back.after).isEqualTo(-7);
    }

    @Test
    void openArgsWithEveryCreateModeRoundTrip() throws Exception {
        fattr4 attrs = new fattr4(new bitmap4(new int[] {0, 2}), new byte[] {0, 0, 1, (byte) 0xa4});
        verifier4 verf = new verifier4(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        for (createhow4 how : new createhow4[] {createhow4.withAttributes(createmode4.UNCHECKED4, attrs),
                createhow4.withAttributes(createmode4.GUARDED4, attrs), createhow4.exclusive(verf),
                createhow4.exclusive41(verf, attrs)}) {
            OPEN4args args = new OPEN4args(3, OPEN4args.OPEN4_SHARE_ACCESS_BOTH, OPEN4args.OPEN4_SHARE_DENY_WRITE,
                    new open_owner4(42, new byte[] {9, 9}), openflag4.create(how), open_claim4.byName("grüß"));
            OPEN4args back = roundTrip(args, new OPEN4args());
            assertThat(back.seqid).isEqualTo(3);
            assertThat(back.share_access).isEqualTo(3);
            assertThat(back.share_deny).isEqualTo(2);
            assertThat(back.owner.clientid).isEqualTo(42);
            assertThat(back.owner.owner).containsExactly(9, 9);
            assertThat(back.openhow.opentype).isEqualTo(opentype4.OPEN4_CREATE);
            assertThat(back.openhow.how.mode).isEqualTo(how.mode);
            assertThat(back.claim.file).isEqualTo("grüß");
            switch (how.mode) {
                case createmode4.EXCLUSIVE4 -> assertThat(back.openhow.how.createverf.value).isEqualTo(verf.value);
                case createmode4.EXCLUSIVE4_1 -> {
                    assertThat(back.openhow.how.ch_createboth.cva_verf.value).isEqualTo(verf.value);
                    assertThat(back.openhow.how.ch_createboth.cva_attrs.attr_vals).isEqualTo(attrs.attr_vals);
                }
                default -> assertThat(back.openhow.how.createattrs.attrmask.value).containsExactly(0, 2);
            }
        }
    }

    @Test
    void openClaimsRoundTrip() throws Exception {
        assertThat(roundTrip(open_claim4.byFileHandle(), new open_claim4()).claim)
                .isEqualTo(open_claim_type4.CLAIM_FH);
        assertThat(roundTrip(open_claim4.previous(2), new open_claim4()).delegate_type).isEqualTo(2);
        open_claim4 cur = new open_claim4();
        cur.claim = open_claim_type4.CLAIM_DELEGATE_CUR;
        cur.delegate_cur_info = new open_claim_delegate_cur4(new stateid4(4, OTHER), "x");
        open_claim4 back = roundTrip(cur, new open_claim4());
        assertThat(back.delegate_cur_info.delegate_stateid.other).isEqualTo(OTHER);
        assertThat(back.delegate_cur_info.file).isEqualTo("x");
        open_claim4 curFh = new open_claim4();
        curFh.claim = open_claim_type4.CLAIM_DELEG_CUR_FH;
        curFh.oc_delegate_stateid = new stateid4(1, OTHER);
        assertThat(roundTrip(curFh, new open_claim4()).oc_delegate_stateid.seqid).isEqualTo(1);
    }

    @Test
    void openArgsWithoutCreateRoundTrip() throws Exception {
        OPEN4args args = new OPEN4args(0, 1, 0, new open_owner4(1, new byte[0]), openflag4.noCreate(),
                open_claim4.byName("f"));
        OPEN4args back = roundTrip(args, new OPEN4args());
        assertThat(back.openhow.opentype).isEqualTo(opentype4.OPEN4_NOCREATE);
        assertThat(back.openhow.how).isNull();
    }

    @Test
    void invalidUtf8InAnOpenNameDecodesAsNull() throws Exception {
        byte[] bytes = ints(open_claim_type4.CLAIM_NULL, 2, 0xc3280000);
        assertThat(decode(bytes, new open_claim4()).file).isNull();
    }

    @Test
    void unknownUnionArmsDoNotDecode() throws Exception {
        assertMalformed(ints(99), new open_claim4());
        assertMalformed(ints(7), new createhow4());
        assertMalformed(ints(open_delegation_type4.OPEN_DELEGATE_READ), new open_delegation4());
        assertMalformed(ints(2), new locker4());
    }

    @Test
    void anOwnerLongerThan1024BytesDoesNotDecode() throws Exception {
        byte[] ok = encode(new state_owner4(1, new byte[1024]));
        assertThat(decode(ok, new state_owner4()).owner).hasSize(1024);
        assertMalformed(encode(new state_owner4(1, new byte[1025])), new state_owner4());
    }

    @Test
    void openResultRoundTrip() throws Exception {
        OPEN4resok res = new OPEN4resok(new stateid4(1, OTHER), new change_info4(false, 1, 2),
                OPEN4resok.OPEN4_RESULT_LOCKTYPE_POSIX, new bitmap4(new int[] {16}), open_delegation4.none());
        OPEN4resok back = roundTrip(res, new OPEN4resok());
        assertThat(back.stateid.other).isEqualTo(OTHER);
        assertThat(back.cinfo.after).isEqualTo(2);
        assertThat(back.rflags).isEqualTo(4);
        assertThat(back.attrset.value).containsExactly(16);
        assertThat(back.delegation.delegation_type).isEqualTo(open_delegation_type4.OPEN_DELEGATE_NONE);

        res.delegation = open_delegation4.noneBecause(why_no_delegation4.WND4_CONTENTION);
        res.delegation.od_whynone.ond_server_will_push_deleg = true;
        OPEN4resok ext = roundTrip(res, new OPEN4resok());
        assertThat(ext.delegation.od_whynone.ond_why).isEqualTo(why_no_delegation4.WND4_CONTENTION);
        assertThat(ext.delegation.od_whynone.ond_server_will_push_deleg).isTrue();
    }

    @Test
    void closeAndDowngradeRoundTrip() throws Exception {
        CLOSE4args close = roundTrip(new CLOSE4args(7, new stateid4(2, OTHER)), new CLOSE4args());
        assertThat(close.seqid).isEqualTo(7);
        assertThat(close.open_stateid.seqid).isEqualTo(2);
        OPEN_DOWNGRADE4args down = roundTrip(new OPEN_DOWNGRADE4args(new stateid4(3, OTHER), 1, 1, 0),
                new OPEN_DOWNGRADE4args());
        assertThat(down.open_stateid.seqid).isEqualTo(3);
        assertThat(down.share_access).isEqualTo(1);
        assertThat(roundTrip(new OPEN_DOWNGRADE4resok(new stateid4(4, OTHER)), new OPEN_DOWNGRADE4resok())
                .open_stateid.seqid).isEqualTo(4);
    }

    @Test
    void lockArgsWithBothLockersRoundTrip() throws Exception {
        LOCK4args fresh = new LOCK4args(nfs_lock_type4.WRITEW_LT, true, 10, -1L, locker4.newOwner(
                new open_to_lock_owner4(1, new stateid4(1, OTHER), 2, new lock_owner4(5, new byte[] {7}))));
        LOCK4args back = roundTrip(fresh, new LOCK4args());
        assertThat(back.locktype).isEqualTo(nfs_lock_type4.WRITEW_LT);
        assertThat(back.reclaim).isTrue();
        assertThat(back.offset).isEqualTo(10);
        assertThat(back.length).isEqualTo(-1L);
        assertThat(back.locker.new_lock_owner).isTrue();
        assertThat(back.locker.open_owner.lock_seqid).isEqualTo(2);
        assertThat(back.locker.open_owner.lock_owner.owner).containsExactly(7);

        LOCK4args existing = new LOCK4args(nfs_lock_type4.READ_LT, false, 0, 1,
                locker4.existingOwner(new exist_lock_owner4(new stateid4(9, OTHER), 3)));
        LOCK4args back2 = roundTrip(existing, new LOCK4args());
        assertThat(back2.locker.new_lock_owner).isFalse();
        assertThat(back2.locker.lock_owner.lock_stateid.seqid).isEqualTo(9);
        assertThat(back2.locker.lock_owner.lock_seqid).isEqualTo(3);
    }

    @Test
    void lockResultsLocktAndLockuRoundTrip() throws Exception {
        assertThat(roundTrip(new LOCK4resok(new stateid4(2, OTHER)), new LOCK4resok()).lock_stateid.seqid)
                .isEqualTo(2);
        LOCK4denied denied = roundTrip(new LOCK4denied(5, 6, nfs_lock_type4.WRITE_LT,
                new lock_owner4(8, new byte[] {1, 2})), new LOCK4denied());
        assertThat(denied.offset).isEqualTo(5);
        assertThat(denied.length).isEqualTo(6);
        assertThat(denied.owner.clientid).isEqualTo(8);
        LOCKT4args lockt = roundTrip(new LOCKT4args(1, 2, 3, new lock_owner4(4, new byte[] {5})), new LOCKT4args());
        assertThat(lockt.length).isEqualTo(3);
        assertThat(lockt.owner.owner).containsExactly(5);
        LOCKU4args locku = roundTrip(new LOCKU4args(2, 1, new stateid4(3, OTHER), 4, 5), new LOCKU4args());
        assertThat(locku.lock_stateid.seqid).isEqualTo(3);
        assertThat(locku.offset).isEqualTo(4);
    }

    @Test
    void testFreeAndDelegreturnRoundTrip() throws Exception {
        TEST_STATEID4args test = roundTrip(new TEST_STATEID4args(new stateid4[] {new stateid4(1, OTHER),
                new stateid4(2, OTHER)}), new TEST_STATEID4args());
        assertThat(test.ts_stateids).hasSize(2);
        assertThat(test.ts_stateids[1].seqid).isEqualTo(2);
        assertThat(roundTrip(new TEST_STATEID4resok(new int[] {0, 10025}), new TEST_STATEID4resok())
                .tsr_status_codes).containsExactly(0, 10025);
        assertThat(roundTrip(new FREE_STATEID4args(new stateid4(5, OTHER)), new FREE_STATEID4args())
                .fsa_stateid.seqid).isEqualTo(5);
        assertThat(roundTrip(new DELEGRETURN4args(new stateid4(6, OTHER)), new DELEGRETURN4args())
                .deleg_stateid.seqid).isEqualTo(6);
    }

    @Test
    void aTestStateidCountBeyondTheArrayBoundDoesNotDecode() throws Exception {
        assertMalformed(ints(XdrSupport.MAX_ARRAY + 1), new TEST_STATEID4args());
        assertMalformed(ints(3, 1), new TEST_STATEID4args());
    }

    @Test
    void lockResultBodiesFollowTheStatus() {
        assertThat(OperationCodecs.newResultBody(nfs_opnum4.OP_LOCK, 0)).isInstanceOf(LOCK4resok.class);
        assertThat(OperationCodecs.newResultBody(nfs_opnum4.OP_LOCK, NfsStatus.DENIED.code()))
                .isInstanceOf(LOCK4denied.class);
        assertThat(OperationCodecs.newResultBody(nfs_opnum4.OP_LOCK, NfsStatus.BAD_STATEID.code())).isNull();
        assertThat(OperationCodecs.newResultBody(nfs_opnum4.OP_LOCKT, 0)).isNull();
        assertThat(OperationCodecs.newResultBody(nfs_opnum4.OP_LOCKT, NfsStatus.DENIED.code()))
                .isInstanceOf(LOCK4denied.class);
        assertThat(OperationCodecs.newResultBody(nfs_opnum4.OP_CLOSE, 0)).isInstanceOf(stateid4.class);
        assertThat(OperationCodecs.newResultBody(nfs_opnum4.OP_FREE_STATEID, 0)).isNull();
    }
}
