package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.ops.Nfs40Harness.bytes;
import static org.tcnfs.nfs4.ops.Nfs40Harness.encode;
import static org.tcnfs.nfs4.ops.Nfs40Harness.getfh;
import static org.tcnfs.nfs4.ops.Nfs40Harness.last;
import static org.tcnfs.nfs4.ops.Nfs40Harness.op;
import static org.tcnfs.nfs4.ops.Nfs40Harness.putfh;
import static org.tcnfs.nfs4.ops.Nfs40Harness.read;
import static org.tcnfs.nfs4.ops.Nfs40Harness.status;
import static org.tcnfs.nfs4.ops.Nfs40Harness.withSeqid;
import static org.tcnfs.nfs4.ops.Nfs40Harness.write;

import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.state.OwnerSequence;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.DELEGRETURN4args;
import org.tcnfs.nfs4.xdr.GETFH4resok;
import org.tcnfs.nfs4.xdr.LOCK4resok;
import org.tcnfs.nfs4.xdr.LOCKT4args;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.OPEN_CONFIRM4resok;
import org.tcnfs.nfs4.xdr.OPEN_DOWNGRADE4args;
import org.tcnfs.nfs4.xdr.RELEASE_LOCKOWNER4args;
import org.tcnfs.nfs4.xdr.lock_owner4;
import org.tcnfs.nfs4.xdr.nfs_lock_type4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.stateid4;

/**
 * Opens and locks of NFSv4.0: open-owner and lock-owner seqids with replay of the last reply (RFC 7530
 * 9.1.7), OPEN_CONFIRM (16.18), RELEASE_LOCKOWNER (16.37) and the NFSv4.0 stateid rules (9.1.4), through
 * whole minor-version-0 compounds.
 */
class Nfs40StateTest {
    private final Nfs40Harness h = new Nfs40Harness();

    @AfterEach
    void stop() {
        h.close();
    }

    private static OPEN4resok openResult(COMPOUND4res res) {
        return (OPEN4resok) res.resarray[1].body;
    }

    // ------------------------------------------------------------------ OPEN and OPEN_CONFIRM

    @Test
    void aNewOpenOwnerMustConfirmAndItsStateidIsUnusableUntilThen() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        COMPOUND4res opened = c.open("owner", "f");
        assertThat(status(opened)).isEqualTo(NfsStatus.OK);
        OPEN4resok ok = openResult(opened);
        assertThat(ok.rflags & OPEN4resok.OPEN4_RESULT_CONFIRM).isNotZero();
        Inode file = h.fs.lookup(h.root(), "f");
        assertThat(status(h.compound(putfh(file), write(ok.stateid, 0, new byte[] {1}))))
                .isEqualTo(NfsStatus.BAD_STATEID);

        COMPOUND4res confirmed = c.sequenced("owner", putfh(file), c.openConfirm("owner", ok.stateid));
        assertThat(status(confirmed)).isEqualTo(NfsStatus.OK);
        stateid4 stateid = ((OPEN_CONFIRM4resok) confirmed.resarray[1].body).open_stateid;
        assertThat(stateid.seqid).isEqualTo(ok.stateid.seqid + 1);
        assertThat(status(h.compound(putfh(file), write(stateid, 0, new byte[] {1})))).isEqualTo(NfsStatus.OK);

        COMPOUND4res again = c.open("owner", "g");
        assertThat(openResult(again).rflags & OPEN4resok.OPEN4_RESULT_CONFIRM)
                .as("a confirmed owner needs no second confirmation").isZero();
    }

    @Test
    void openConfirmOfAConfirmedOwnerIsBadStateid() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened f = c.openConfirmed("owner", "f");
        COMPOUND4res twice = c.sequenced("owner", putfh(f.file()), c.openConfirm("owner", f.stateid()));
        assertThat(status(twice)).isEqualTo(NfsStatus.BAD_STATEID);
    }

    @Test
    void openConfirmWithAnotherThanTheNextSeqidIsBadSeqid() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        COMPOUND4res opened = c.open("owner", "f");
        stateid4 stateid = openResult(opened).stateid;
        Inode file = h.fs.lookup(h.root(), "f");
        COMPOUND4res bad = h.compound(putfh(file), op(nfs_opnum4.OP_OPEN_CONFIRM,
                new org.tcnfs.nfs4.xdr.OPEN_CONFIRM4args(stateid, 50)));
        assertThat(status(bad)).isEqualTo(NfsStatus.BAD_SEQID);
        assertThat(status(c.sequenced("owner", putfh(file), c.openConfirm("owner", stateid))))
                .as("BAD_SEQID does not advance the owner's seqid").isEqualTo(NfsStatus.OK);
    }

    @Test
    void anotherOpenOfAnUnconfirmedOwnerStartsTheOwnerOver() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        stateid4 abandoned = openResult(c.open("owner", "f")).stateid;
        Inode file = h.fs.lookup(h.root(), "f");
        COMPOUND4res reopened = h.compound(putfh(h.root()), c.open("owner", "f", OPEN4args.OPEN4_SHARE_ACCESS_READ,
                OPEN4args.OPEN4_SHARE_DENY_NONE, false));
        assertThat(status(reopened)).as("any seqid starts an unconfirmed owner over").isEqualTo(NfsStatus.OK);
        assertThat(openResult(reopened).rflags & OPEN4resok.OPEN4_RESULT_CONFIRM).isNotZero();
        assertThat(status(h.compound(putfh(file), op(nfs_opnum4.OP_OPEN_CONFIRM,
                new org.tcnfs.nfs4.xdr.OPEN_CONFIRM4args(abandoned, 1)))))
                .as("the first open was dropped").isEqualTo(NfsStatus.BAD_STATEID);
    }

    @Test
    void nfs41OnlyClaimsAndCreateModesDoNotExistInNfs40() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        OPEN4args byHandle = new OPEN4args(c.seqid("owner"), OPEN4args.OPEN4_SHARE_ACCESS_READ,
                OPEN4args.OPEN4_SHARE_DENY_NONE, new org.tcnfs.nfs4.xdr.open_owner4(c.clientId, "owner".getBytes()),
                org.tcnfs.nfs4.xdr.openflag4.noCreate(), org.tcnfs.nfs4.xdr.open_claim4.byFileHandle());
        h.fs.create(h.root(), "f", Credential.ROOT, 0644);
        COMPOUND4res res = h.compound(putfh(h.fs.lookup(h.root(), "f")), op(nfs_opnum4.OP_OPEN, byHandle));
        assertThat(status(res)).isEqualTo(NfsStatus.BADXDR);
        COMPOUND4res wants = h.compound(putfh(h.root()), c.open("owner", "f",
                OPEN4args.OPEN4_SHARE_ACCESS_READ | OPEN4args.OPEN4_SHARE_ACCESS_WANT_NO_DELEG,
                OPEN4args.OPEN4_SHARE_DENY_NONE, false));
        assertThat(status(wants)).isEqualTo(NfsStatus.INVAL);
    }

    // ------------------------------------------------------------------ seqids and replays

    /** Creates and confirms "f" for open owner "owner" of {@code c}; its next OPEN of "f" for reading. */
    private static org.tcnfs.nfs4.xdr.nfs_argop4 nextReadOpenOfF(Nfs40Harness.Client c) throws IOException {
        c.openConfirmed("owner", "f");
        return c.open("owner", "f", OPEN4args.OPEN4_SHARE_ACCESS_READ, OPEN4args.OPEN4_SHARE_DENY_NONE, false);
    }

    @Test
    void retransmittedOpenGetsTheOriginalReplyAndFileHandle() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        org.tcnfs.nfs4.xdr.nfs_argop4 open = nextReadOpenOfF(c);
        COMPOUND4res first = h.compound(putfh(h.root()), open, getfh());
        COMPOUND4res resent = h.compound(putfh(h.root()), open, getfh());
        assertThat(status(resent)).isEqualTo(NfsStatus.OK);
        assertThat(encode(resent.resarray[1])).isEqualTo(encode(first.resarray[1]));
        assertThat(((GETFH4resok) resent.resarray[2].body).object.value)
                .isEqualTo(h.fs.lookup(h.root(), "f").toBytes());
    }

    @Test
    void aRetransmittedOpenIsFoundBeforeItRunsWithTheFileItMakesCurrent() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        org.tcnfs.nfs4.xdr.nfs_argop4 open = nextReadOpenOfF(c);
        int seqid = c.seqid("owner");
        OpenStateTable opens = h.server.state().opens();
        assertThat(opens.openRetransmission(c.clientId, bytes("owner"), seqid)).as("before it ran").isEmpty();

        c.sequenced("owner", putfh(h.root()), open, getfh());

        assertThat(opens.openRetransmission(c.clientId, bytes("owner"), seqid))
                .contains(new OwnerSequence.Retransmission(NfsStatus.OK.code(), h.fs.lookup(h.root(), "f")));
        assertThat(opens.openRetransmission(c.clientId, bytes("owner"), seqid + 1)).as("the next seqid").isEmpty();
        assertThat(opens.openRetransmission(c.clientId, bytes("other"), seqid)).as("an unknown owner").isEmpty();
        assertThat(opens.openRetransmission(c.clientId + 1, bytes("owner"), seqid)).as("an unknown client")
                .isEmpty();
    }

    @Test
    void anOpenPlannedAsOneThatRunsButFoundARetransmissionIsDelayedAndTheRetryIsAnsweredFromTheCache()
            throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        org.tcnfs.nfs4.xdr.nfs_argop4 open = nextReadOpenOfF(c);
        COMPOUND4res first = h.compound(putfh(h.root()), open, getfh());

        COMPOUND4res planned = h.plannedCompound(i -> false, putfh(h.root()), open, getfh());

        assertThat(status(planned)).isEqualTo(NfsStatus.DELAY);
        assertThat(planned.resarray).hasSize(2);
        COMPOUND4res resent = h.compound(putfh(h.root()), open, getfh());
        assertThat(encode(resent.resarray[1])).as("still the original reply").isEqualTo(encode(first.resarray[1]));
    }

    @Test
    void anOpenPlannedAsARetransmissionThatWouldRunIsDelayedWithoutUsingItsSeqid() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        org.tcnfs.nfs4.xdr.nfs_argop4 open = nextReadOpenOfF(c);

        COMPOUND4res planned = h.plannedCompound(i -> i == 1, putfh(h.root()), open, getfh());

        assertThat(status(planned)).isEqualTo(NfsStatus.DELAY);
        assertThat(status(h.compound(putfh(h.root()), open, getfh()))).as("the same seqid runs then")
                .isEqualTo(NfsStatus.OK);
    }

    @Test
    void retransmittedFailedOpenIsAnsweredFromTheOwnersCacheEvenWhenTheFileNowExists() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        c.openConfirmed("owner", "f");
        org.tcnfs.nfs4.xdr.nfs_argop4 open = c.open("owner", "missing", OPEN4args.OPEN4_SHARE_ACCESS_READ,
                OPEN4args.OPEN4_SHARE_DENY_NONE, false);
        assertThat(status(c.sequenced("owner", putfh(h.root()), open))).isEqualTo(NfsStatus.NOENT);
        h.fs.create(h.root(), "missing", Credential.ROOT, 0644);
        assertThat(status(h.compound(putfh(h.root()), open))).isEqualTo(NfsStatus.NOENT);
        assertThat(status(c.open("owner", "missing"))).as("the next seqid runs").isEqualTo(NfsStatus.OK);
    }

    @Test
    void aSeqidNeitherLastNorNextIsBadSeqidAndChangesNothing() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened f = c.openConfirmed("owner", "f");
        COMPOUND4res skipped = h.compound(putfh(f.file()),
                op(nfs_opnum4.OP_CLOSE, new org.tcnfs.nfs4.xdr.CLOSE4args(c.seqid("owner") + 5, f.stateid())));
        assertThat(status(skipped)).isEqualTo(NfsStatus.BAD_SEQID);
        assertThat(status(h.compound(putfh(f.file()), write(f.stateid(), 0, new byte[] {1})))).isEqualTo(NfsStatus.OK);
        assertThat(status(c.sequenced("owner", putfh(f.file()), c.close("owner", f.stateid()))))
                .isEqualTo(NfsStatus.OK);
    }

    @Test
    void exemptStatusesDoNotAdvanceTheSeqid() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened f = c.openConfirmed("owner", "f");
        h.fs.create(h.root(), "other", Credential.ROOT, 0644);
        Inode other = h.fs.lookup(h.root(), "other");
        int seqid = c.seqid("owner");
        COMPOUND4res wrongFile = h.compound(putfh(other), c.close("owner", f.stateid()));
        assertThat(status(wrongFile)).isEqualTo(NfsStatus.BAD_STATEID);
        COMPOUND4res right = h.compound(putfh(f.file()), c.close("owner", f.stateid()));
        assertThat(status(right)).as("seqid %d is still the next one", seqid).isEqualTo(NfsStatus.OK);
    }

    @Test
    void aFailureOtherThanTheExemptOnesAdvancesTheSeqidAndIsReplayed() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened f = c.openConfirmed("owner", "f");
        org.tcnfs.nfs4.xdr.nfs_argop4 downgrade = op(nfs_opnum4.OP_OPEN_DOWNGRADE, new OPEN_DOWNGRADE4args(
                f.stateid(), c.seqid("owner"), OPEN4args.OPEN4_SHARE_ACCESS_BOTH, OPEN4args.OPEN4_SHARE_DENY_BOTH));
        assertThat(status(c.sequenced("owner", putfh(f.file()), downgrade))).isEqualTo(NfsStatus.INVAL);
        assertThat(status(h.compound(putfh(f.file()), downgrade))).isEqualTo(NfsStatus.INVAL);
        assertThat(status(c.sequenced("owner", putfh(f.file()), c.close("owner", f.stateid()))))
                .isEqualTo(NfsStatus.OK);
    }

    @Test
    void retransmittedCloseGetsTheOriginalReplyAfterTheOpenIsGone() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened f = c.openConfirmed("owner", "f");
        org.tcnfs.nfs4.xdr.nfs_argop4 close = c.close("owner", f.stateid());
        COMPOUND4res first = h.compound(putfh(f.file()), close);
        assertThat(status(first)).isEqualTo(NfsStatus.OK);
        COMPOUND4res resent = h.compound(putfh(f.file()), close);
        assertThat(status(resent)).isEqualTo(NfsStatus.OK);
        assertThat(encode(resent.resarray[1])).isEqualTo(encode(first.resarray[1]));
        assertThat(status(h.compound(putfh(f.file()), write(f.stateid(), 0, new byte[] {1}))))
                .as("the open is closed all the same").isEqualTo(NfsStatus.BAD_STATEID);
    }

    // ------------------------------------------------------------------ stateids

    @Test
    void seqidZeroIsAnOldSeqidInNfs40() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened f = c.openConfirmed("owner", "f");
        assertThat(status(h.compound(putfh(f.file()), read(withSeqid(f.stateid(), 0), 0, 1))))
                .isEqualTo(NfsStatus.OLD_STATEID);
        assertThat(status(c.sequenced("owner", putfh(f.file()), c.close("owner", withSeqid(f.stateid(), 1)))))
                .isEqualTo(NfsStatus.OLD_STATEID);
    }

    @Test
    void stateidsOfAnotherServerInstanceAreStale() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened f = c.openConfirmed("owner", "f");
        byte[] other = f.stateid().other.clone();
        other[0] ^= 0x40;
        stateid4 stale = new stateid4(f.stateid().seqid, other);
        assertThat(status(h.compound(putfh(f.file()), read(stale, 0, 1)))).isEqualTo(NfsStatus.STALE_STATEID);
        assertThat(status(h.compound(putfh(f.file()), c.close("owner", stale)))).isEqualTo(NfsStatus.STALE_STATEID);
        assertThat(status(h.compound(putfh(f.file()), op(nfs_opnum4.OP_DELEGRETURN, new DELEGRETURN4args(stale)))))
                .isEqualTo(NfsStatus.STALE_STATEID);
    }

    @Test
    void theCurrentStateidMarkerDoesNotExistInNfs40ButTheAnonymousStateidWorks() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened f = c.openConfirmed("owner", "f");
        assertThat(status(h.compound(putfh(f.file()), read(new stateid4(1, new byte[12]), 0, 1))))
                .isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(status(h.compound(putfh(f.file()), read(new stateid4(0, new byte[12]), 0, 1))))
                .isEqualTo(NfsStatus.OK);
    }

    // ------------------------------------------------------------------ locks

    @Test
    void lockOwnersAreSequencedAndTheirRequestsReplayed() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened f = c.openConfirmed("open", "f");
        COMPOUND4res locked = c.sequenced("open", putfh(f.file()), c.lockNew("open", f.stateid(), "lock", 0, 10));
        assertThat(status(locked)).isEqualTo(NfsStatus.OK);
        c.lockOwnerStarted("lock");
        stateid4 lock = ((LOCK4resok) last(locked).body).lock_stateid;

        org.tcnfs.nfs4.xdr.nfs_argop4 more = c.lockExisting("lock", lock, 20, 10);
        COMPOUND4res first = c.sequenced("lock", putfh(f.file()), more);
        assertThat(status(first)).isEqualTo(NfsStatus.OK);
        COMPOUND4res resent = h.compound(putfh(f.file()), more);
        assertThat(encode(resent.resarray[1])).as("a replay").isEqualTo(encode(first.resarray[1]));

        stateid4 current = ((LOCK4resok) last(first).body).lock_stateid;
        COMPOUND4res badSeqid = h.compound(putfh(f.file()),
                op(nfs_opnum4.OP_LOCKU, new org.tcnfs.nfs4.xdr.LOCKU4args(nfs_lock_type4.WRITE_LT,
                        c.seqid("lock") + 1, current, 0, 10)));
        assertThat(status(badSeqid)).isEqualTo(NfsStatus.BAD_SEQID);
        COMPOUND4res unlocked = c.sequenced("lock", putfh(f.file()), c.locku("lock", current, 0, 30));
        assertThat(status(unlocked)).isEqualTo(NfsStatus.OK);
    }

    @Test
    void retransmittedNewOwnerLockIsAnsweredByTheOpenOwnerEvenWhenDenied() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened f = c.openConfirmed("open", "f");
        assertThat(status(c.sequenced("open", putfh(f.file()), c.lockNew("open", f.stateid(), "holder", 0, 10))))
                .isEqualTo(NfsStatus.OK);
        org.tcnfs.nfs4.xdr.nfs_argop4 loser = c.lockNew("open", f.stateid(), "loser", 5, 10);
        COMPOUND4res denied = c.sequenced("open", putfh(f.file()), loser);
        assertThat(status(denied)).isEqualTo(NfsStatus.DENIED);
        COMPOUND4res resent = h.compound(putfh(f.file()), loser);
        assertThat(status(resent)).isEqualTo(NfsStatus.DENIED);
        assertThat(encode(resent.resarray[1])).isEqualTo(encode(denied.resarray[1]));
    }

    @Test
    void newLockOwnerOfAnUnknownClientIsStaleClientId() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened f = c.openConfirmed("open", "f");
        org.tcnfs.nfs4.xdr.LOCK4args args = new org.tcnfs.nfs4.xdr.LOCK4args(nfs_lock_type4.WRITE_LT, false, 0, 10,
                org.tcnfs.nfs4.xdr.locker4.newOwner(new org.tcnfs.nfs4.xdr.open_to_lock_owner4(c.seqid("open"),
                        f.stateid(), 0, new lock_owner4(0, "lock".getBytes()))));
        assertThat(status(h.compound(putfh(f.file()), op(nfs_opnum4.OP_LOCK, args))))
                .isEqualTo(NfsStatus.STALE_CLIENTID);
        assertThat(status(h.compound(putfh(f.file()), op(nfs_opnum4.OP_LOCKT,
                new LOCKT4args(nfs_lock_type4.WRITE_LT, 0, 10, new lock_owner4(0, "t".getBytes()))))))
                .isEqualTo(NfsStatus.STALE_CLIENTID);
    }

    @Test
    void releaseLockownerIsLocksHeldWhileItHoldsLocksAndForgetsItAfterwards() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened f = c.openConfirmed("open", "f");
        COMPOUND4res locked = c.sequenced("open", putfh(f.file()), c.lockNew("open", f.stateid(), "lock", 0, 10));
        c.lockOwnerStarted("lock");
        stateid4 lock = ((LOCK4resok) last(locked).body).lock_stateid;
        org.tcnfs.nfs4.xdr.nfs_argop4 release = op(nfs_opnum4.OP_RELEASE_LOCKOWNER,
                new RELEASE_LOCKOWNER4args(new lock_owner4(c.clientId, "lock".getBytes())));
        assertThat(status(h.compound(release))).isEqualTo(NfsStatus.LOCKS_HELD);
        COMPOUND4res unlocked = c.sequenced("lock", putfh(f.file()), c.locku("lock", lock, 0, 10));
        assertThat(status(unlocked)).isEqualTo(NfsStatus.OK);
        assertThat(status(h.compound(release))).isEqualTo(NfsStatus.OK);
        stateid4 after = (stateid4) last(unlocked).body;
        assertThat(status(h.compound(putfh(f.file()), read(after, 0, 1)))).isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(status(h.compound(op(nfs_opnum4.OP_RELEASE_LOCKOWNER,
                new RELEASE_LOCKOWNER4args(new lock_owner4(c.clientId, "never".getBytes()))))))
                .as("an unknown lock owner is no error").isEqualTo(NfsStatus.OK);
    }

    // ------------------------------------------------------------------ owners are forgotten when idle

    @Test
    void anIdleOwnerWithoutStateIsForgottenAndStartsOverUnconfirmed() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened f = c.openConfirmed("owner", "f");
        assertThat(status(c.sequenced("owner", putfh(f.file()), c.close("owner", f.stateid()))))
                .isEqualTo(NfsStatus.OK);
        h.clock.advance(Nfs40Harness.LEASE.dividedBy(2));
        assertThat(status(h.compound(Nfs40Harness.renew(c.clientId)))).isEqualTo(NfsStatus.OK);
        h.clock.advance(Nfs40Harness.LEASE.dividedBy(2).plusSeconds(1));
        assertThat(status(h.compound(Nfs40Harness.renew(c.clientId)))).isEqualTo(NfsStatus.OK);
        h.state.reapExpired();
        COMPOUND4res reopened = h.compound(putfh(h.root()), c.open("owner", "f", OPEN4args.OPEN4_SHARE_ACCESS_READ,
                OPEN4args.OPEN4_SHARE_DENY_NONE, false));
        nfs_resop4 open = reopened.resarray[1];
        assertThat(NfsStatus.of(open.status)).isEqualTo(NfsStatus.OK);
        assertThat(((OPEN4resok) open.body).rflags & OPEN4resok.OPEN4_RESULT_CONFIRM).isNotZero();
    }
}
