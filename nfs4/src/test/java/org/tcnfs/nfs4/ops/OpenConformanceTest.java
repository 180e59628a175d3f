package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_ACCESS_BOTH;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_ACCESS_READ;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_ACCESS_WANT_ANY_DELEG;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_ACCESS_WANT_CANCEL;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_ACCESS_WANT_NO_DELEG;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_ACCESS_WANT_READ_DELEG;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_ACCESS_WRITE;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_DENY_NONE;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_DENY_READ;
import static org.tcnfs.nfs4.xdr.OPEN4args.OPEN4_SHARE_DENY_WRITE;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.status.NoEntException;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.OPEN4resok;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.createhow4;
import org.tcnfs.nfs4.xdr.createmode4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs_fh4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.open_delegation_type4;
import org.tcnfs.nfs4.xdr.why_no_delegation4;

/**
 * OPEN rules the pynfs NFSv4.1 suite checks: the answer to a delegation wish (RFC 8881 18.16.3, pynfs
 * DELEG4), NFS4ERR_GRACE before RECLAIM_COMPLETE (18.51.3, pynfs RECC3), and the state of an open file that
 * RENAME replaced (pynfs RNM21).
 */
class OpenConformanceTest {
    private final StateHarness server = new StateHarness();
    private final StateHarness.Client a = server.client(0x1111);

    @AfterEach
    void stop() {
        server.close();
    }

    private OPEN4resok openWithWish(String name, int wish) throws Exception {
        return a.openOk("o", name, OPEN4_SHARE_ACCESS_READ | wish, OPEN4_SHARE_DENY_NONE);
    }

    @Test
    void openWithoutADelegationWishAnswersOpenDelegateNone() throws Exception {
        OPEN4resok res = openWithWish("f", 0);

        assertThat(res.delegation.delegation_type).isEqualTo(open_delegation_type4.OPEN_DELEGATE_NONE);
    }

    @Test
    void openWantingNoDelegationAnswersNoneExtNotWanted() throws Exception {
        OPEN4resok res = openWithWish("f", OPEN4_SHARE_ACCESS_WANT_NO_DELEG);

        assertThat(res.delegation.delegation_type).isEqualTo(open_delegation_type4.OPEN_DELEGATE_NONE_EXT);
        assertThat(res.delegation.od_whynone.ond_why).isEqualTo(why_no_delegation4.WND4_NOT_WANTED);
    }

    @Test
    void openWantingADelegationAnswersNoneExtResourceWithoutAPromise() throws Exception {
        for (int wish : new int[] {OPEN4_SHARE_ACCESS_WANT_READ_DELEG, OPEN4_SHARE_ACCESS_WANT_ANY_DELEG}) {
            OPEN4resok res = openWithWish("f" + wish, wish);

            assertThat(res.delegation.delegation_type).isEqualTo(open_delegation_type4.OPEN_DELEGATE_NONE_EXT);
            assertThat(res.delegation.od_whynone.ond_why).isEqualTo(why_no_delegation4.WND4_RESOURCE);
            assertThat(res.delegation.od_whynone.ond_server_will_signal_avail).isFalse();
        }
    }

    @Test
    void openCancellingAWishAnswersNoneExtCancelled() throws Exception {
        OPEN4resok res = openWithWish("f", OPEN4_SHARE_ACCESS_WANT_CANCEL);

        assertThat(res.delegation.od_whynone.ond_why).isEqualTo(why_no_delegation4.WND4_CANCELLED);
    }

    @Test
    void furtherOpenOfTheSameOwnerThatItsOwnDenyExcludesIsShareDenied() throws Exception {
        a.openOk("o", "f", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_READ);

        assertThat(NfsStatus.of(a.open("o", "f", OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, null).status))
                .isEqualTo(NfsStatus.SHARE_DENIED);
        assertThat(NfsStatus.of(a.open("o", "f", OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_WRITE, null).status))
                .isEqualTo(NfsStatus.SHARE_DENIED);
        assertThat(NfsStatus.of(a.open("o", "f", OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_NONE, null).status))
                .isEqualTo(NfsStatus.OK);
    }

    @Test
    void openBeforeReclaimCompleteIsGraceAndCreatesNothing() throws Exception {
        StateHarness.Client fresh = server.reclaimingClient(0x3333);

        nfs_resop4 res = fresh.open("o", "new", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE,
                createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4()));

        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.GRACE);
        assertThatThrownBy(() -> server.fs.lookup(server.fs.getRootInode(), "new")).isInstanceOf(NoEntException.class);
    }

    @Test
    void openAfterReclaimCompleteIsGranted() throws Exception {
        StateHarness.Client fresh = server.reclaimingClient(0x3333);
        server.state.reclaimComplete(fresh.client);

        nfs_resop4 res = fresh.open("o", "new", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE,
                createhow4.withAttributes(createmode4.UNCHECKED4, new fattr4()));

        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.OK);
    }

    @Test
    void openFileReplacedByRenameCanStillBeClosedThenItsHandleIsStale() throws Exception {
        OPEN4resok opened = a.openOk("o", "file2", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);
        Inode replaced = a.current();
        Inode root = server.fs.getRootInode();
        server.fs.create(root, "file", Credential.ROOT, 0644);
        server.fs.rename(root, "file", root, "file2");

        a.newCompound();
        a.putfh(replaced);
        assertThat(a.close(opened.stateid)).isEqualTo(NfsStatus.OK);

        a.newCompound();
        assertThat(a.status(nfs_opnum4.OP_PUTFH, new PUTFH4args(new nfs_fh4(replaced.toBytes())))).isEqualTo(NfsStatus.STALE);
    }

    @Test
    void handleOfARemovedFileThatNoClientHasOpenIsStale() throws Exception {
        Inode root = server.fs.getRootInode();
        Inode file = server.fs.create(root, "gone", Credential.ROOT, 0644);
        server.fs.remove(root, "gone");

        assertThat(a.status(nfs_opnum4.OP_PUTFH, new PUTFH4args(new nfs_fh4(file.toBytes())))).isEqualTo(NfsStatus.STALE);
    }
}
