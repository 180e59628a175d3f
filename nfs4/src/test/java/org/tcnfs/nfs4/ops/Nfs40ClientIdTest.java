package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.ops.Nfs40Harness.last;
import static org.tcnfs.nfs4.ops.Nfs40Harness.putfh;
import static org.tcnfs.nfs4.ops.Nfs40Harness.renew;
import static org.tcnfs.nfs4.ops.Nfs40Harness.setclientid;
import static org.tcnfs.nfs4.ops.Nfs40Harness.setclientidConfirm;
import static org.tcnfs.nfs4.ops.Nfs40Harness.status;
import static org.tcnfs.nfs4.ops.Nfs40Harness.verifier;
import static org.tcnfs.nfs4.ops.Nfs40Harness.write;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.SETCLIENTID4resok;
import org.tcnfs.nfs4.xdr.netaddr4;

/**
 * SETCLIENTID, SETCLIENTID_CONFIRM and RENEW of NFSv4.0 (RFC 7530 16.33, 16.34, 16.28) and lease renewal
 * (9.5), through whole minor-version-0 compounds.
 */
class Nfs40ClientIdTest {
    private static final Credential ALICE = new Credential(1000, 1000, new int[0]);
    private static final Credential BOB = new Credential(1001, 1001, new int[0]);

    private final Nfs40Harness h = new Nfs40Harness();

    @AfterEach
    void stop() {
        h.close();
    }

    private SETCLIENTID4resok setclientidOk(String id, int verifier, Credential caller) throws Exception {
        COMPOUND4res res = h.compound(0, caller, setclientid(id, verifier(verifier)));
        assertThat(status(res)).isEqualTo(NfsStatus.OK);
        return (SETCLIENTID4resok) res.resarray[0].body;
    }

    private NfsStatus confirm(SETCLIENTID4resok ok, Credential caller) throws Exception {
        return status(h.compound(0, caller, setclientidConfirm(ok.clientid, ok.setclientid_confirm.value)));
    }

    /** RFC 7530 12.7: a string that is not valid UTF-8 is NFS4ERR_INVAL; nothing is recorded. */
    @Test
    void setclientidWithACallbackAddressThatIsNotUtf8IsInvalAndRecordsNoClient() throws Exception {
        netaddr4 invalid = new netaddr4("tcp", "") {
            @Override
            public void xdrEncode(org.dcache.oncrpc4j.xdr.XdrEncodingStream xdr) {
                xdr.xdrEncodeDynamicOpaque(new byte[] {'t', 'c', 'p'});
                xdr.xdrEncodeDynamicOpaque(new byte[] {'1', '2', '7', (byte) 0xff, (byte) 0xfe});
            }
        };
        COMPOUND4res res = h.compound(0, ALICE, Nfs40Harness.op(org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SETCLIENTID,
                new org.tcnfs.nfs4.xdr.SETCLIENTID4args(new org.tcnfs.nfs4.xdr.nfs_client_id4(
                        new org.tcnfs.nfs4.xdr.verifier4(verifier(1)), "bad-callback".getBytes()),
                        new org.tcnfs.nfs4.xdr.cb_client4(0x40000000, invalid), 1)));

        assertThat(status(res)).isEqualTo(NfsStatus.INVAL);
        assertThat(h.state.clientCount()).isZero();
    }

    @Test
    void confirmedClientRenewsItsLease() throws Exception {
        SETCLIENTID4resok ok = setclientidOk("c1", 1, Credential.ROOT);
        assertThat(ok.setclientid_confirm.value).isNotEqualTo(new byte[8]);
        assertThat(status(h.compound(renew(ok.clientid)))).as("not confirmed yet").isEqualTo(NfsStatus.STALE_CLIENTID);
        assertThat(confirm(ok, Credential.ROOT)).isEqualTo(NfsStatus.OK);
        assertThat(status(h.compound(renew(ok.clientid)))).isEqualTo(NfsStatus.OK);
    }

    @Test
    void confirmWithUnknownIdOrWrongVerifierIsStaleClientId() throws Exception {
        assertThat(status(h.compound(setclientidConfirm(0, new byte[8])))).isEqualTo(NfsStatus.STALE_CLIENTID);
        SETCLIENTID4resok ok = setclientidOk("c1", 1, Credential.ROOT);
        assertThat(status(h.compound(setclientidConfirm(ok.clientid, verifier(77)))))
                .isEqualTo(NfsStatus.STALE_CLIENTID);
        assertThat(status(h.compound(renew(0)))).isEqualTo(NfsStatus.STALE_CLIENTID);
    }

    @Test
    void retransmittedConfirmIsOk() throws Exception {
        SETCLIENTID4resok ok = setclientidOk("c1", 1, Credential.ROOT);
        assertThat(confirm(ok, Credential.ROOT)).isEqualTo(NfsStatus.OK);
        assertThat(confirm(ok, Credential.ROOT)).isEqualTo(NfsStatus.OK);
    }

    @Test
    void callbackUpdateKeepsTheClientIdAndItsState() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened file = c.openConfirmed("owner", "f");
        // same identity, verifier and principal: an unconfirmed { v, x, c, k, t } beside the confirmed record
        SETCLIENTID4resok update = setclientidOk("c1", 1, Credential.ROOT);
        assertThat(update.clientid).isEqualTo(c.clientId);
        assertThat(confirm(update, Credential.ROOT)).isEqualTo(NfsStatus.OK);
        assertThat(status(h.compound(putfh(file.file()), write(file.stateid(), 0, new byte[] {1}))))
                .as("the open survives a callback update").isEqualTo(NfsStatus.OK);
    }

    @Test
    void confirmedRestartGetsANewIdAndExpiresTheOldClientsState() throws Exception {
        Nfs40Harness.Client before = h.client("c1");
        Nfs40Harness.Opened file = before.openConfirmed("owner", "f");
        SETCLIENTID4resok restarted = setclientidOk("c1", 2, Credential.ROOT);
        assertThat(restarted.clientid).isNotEqualTo(before.clientId);
        assertThat(status(h.compound(putfh(file.file()), write(file.stateid(), 0, new byte[] {1}))))
                .as("the old incarnation keeps its state until the new one is confirmed").isEqualTo(NfsStatus.OK);
        assertThat(confirm(restarted, Credential.ROOT)).isEqualTo(NfsStatus.OK);
        COMPOUND4res close = h.compound(putfh(file.file()), before.close("owner", file.stateid()));
        assertThat(status(close)).isEqualTo(NfsStatus.EXPIRED);
        assertThat(status(h.compound(renew(before.clientId)))).isEqualTo(NfsStatus.EXPIRED);
        assertThat(status(h.compound(renew(restarted.clientid)))).isEqualTo(NfsStatus.OK);
    }

    @Test
    void newSetclientidReplacesAnUnconfirmedRecord() throws Exception {
        SETCLIENTID4resok first = setclientidOk("c1", 1, Credential.ROOT);
        SETCLIENTID4resok second = setclientidOk("c1", 1, Credential.ROOT);
        assertThat(second.clientid).isNotEqualTo(first.clientid);
        assertThat(second.setclientid_confirm.value).isNotEqualTo(first.setclientid_confirm.value);
        assertThat(confirm(first, Credential.ROOT)).isEqualTo(NfsStatus.STALE_CLIENTID);
        assertThat(confirm(second, Credential.ROOT)).isEqualTo(NfsStatus.OK);
    }

    @Test
    void anotherPrincipalIsClidInUseWhileTheClientHoldsStateAndGetsItsCallbackAddress() throws Exception {
        Nfs40Harness.Client alice = h.client("shared", ALICE);
        alice.openConfirmed("owner", "f");
        COMPOUND4res res = h.compound(0, BOB, setclientid("shared", verifier(1)));
        assertThat(status(res)).isEqualTo(NfsStatus.CLID_INUSE);
        netaddr4 holder = (netaddr4) res.resarray[0].body;
        assertThat(holder.na_r_netid).isEqualTo("tcp");
        assertThat(holder.na_r_addr).isEqualTo("127.0.0.1.3.232");
    }

    @Test
    void anotherPrincipalMayTakeAnIdentityWithoutState() throws Exception {
        Nfs40Harness.Client alice = h.client("shared", ALICE);
        SETCLIENTID4resok bob = setclientidOk("shared", 1, BOB);
        assertThat(bob.clientid).isNotEqualTo(alice.clientId);
        assertThat(confirm(bob, BOB)).isEqualTo(NfsStatus.OK);
        assertThat(status(h.compound(renew(alice.clientId)))).isEqualTo(NfsStatus.EXPIRED);
    }

    @Test
    void confirmByAnotherPrincipalIsClidInUse() throws Exception {
        SETCLIENTID4resok ok = setclientidOk("c1", 1, ALICE);
        assertThat(confirm(ok, BOB)).isEqualTo(NfsStatus.CLID_INUSE);
        assertThat(confirm(ok, ALICE)).isEqualTo(NfsStatus.OK);
    }

    @Test
    void aClientWhoseLeaseRanOutIsExpiredAndLosesItsState() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened file = c.openConfirmed("owner", "f");
        h.clock.advance(Nfs40Harness.LEASE.plusSeconds(1));
        assertThat(h.state.reapExpired()).isEqualTo(1);
        assertThat(status(h.compound(renew(c.clientId)))).isEqualTo(NfsStatus.EXPIRED);
        assertThat(status(h.compound(putfh(file.file()), write(file.stateid(), 0, new byte[] {1}))))
                .isEqualTo(NfsStatus.EXPIRED);
        assertThat(status(c.open("owner", "g"))).isEqualTo(NfsStatus.EXPIRED);
    }

    @Test
    void renewOfALapsedLeaseBeforeTheReaperCameIsExpired() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        h.clock.advance(Nfs40Harness.LEASE.plusSeconds(1));
        assertThat(status(h.compound(renew(c.clientId)))).isEqualTo(NfsStatus.EXPIRED);
    }

    @Test
    void everyUseOfAStateidOrClientIdRenewsTheLease() throws Exception {
        Nfs40Harness.Client c = h.client("c1");
        Nfs40Harness.Opened file = c.openConfirmed("owner", "f");
        Duration step = Nfs40Harness.LEASE.multipliedBy(2).dividedBy(3);
        h.clock.advance(step);
        assertThat(status(h.compound(putfh(file.file()), write(file.stateid(), 0, new byte[] {1}))))
                .isEqualTo(NfsStatus.OK);
        h.clock.advance(step);
        assertThat(h.state.reapExpired()).as("the WRITE renewed the lease").isZero();
        assertThat(status(c.open("owner2", "g"))).isEqualTo(NfsStatus.OK);
        h.clock.advance(step);
        assertThat(h.state.reapExpired()).as("the OPEN renewed the lease").isZero();
        assertThat(status(h.compound(renew(c.clientId)))).isEqualTo(NfsStatus.OK);
        assertThat(last(h.compound(renew(c.clientId))).status).isZero();
    }
}
