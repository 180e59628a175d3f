package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.nfs4.ops.SessionHarness.*;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.status.StaleClientIdException;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4resok;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4resok;

/**
 * The client record state machine where another principal uses a confirmed owner: EXCHANGE_ID case 3 of
 * RFC 8881 18.35.4 (pynfs EID5e, EID5g) and CREATE_SESSION after confirmation, 18.36.4 (pynfs CSESS10).
 */
class ClientRecordTakeoverTest {
    private final SessionHarness h = new SessionHarness();

    @AfterEach
    void close() {
        h.close();
    }

    /** A confirmed client of {@code owner} (as root, verifier 1) whose only session was destroyed. */
    private EXCHANGE_ID4resok confirmedClientWithoutSessions(String owner) throws Exception {
        EXCHANGE_ID4resok eid = h.exchangeId(owner, 1);
        CREATE_SESSION4resok session =
                body(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid)), 0, CREATE_SESSION4resok.class);
        assertThat(status(h.compound(destroySessionOp(session.csr_sessionid)))).isEqualTo(NfsStatus.OK);
        return eid;
    }

    @Test
    void anotherPrincipalWithANewVerifierTakesOverAConfirmedOwnerWithoutState() throws Exception {
        EXCHANGE_ID4resok old = confirmedClientWithoutSessions("linux-a");

        EXCHANGE_ID4resok taken = body(h.compound(ALICE, 0, exchangeIdOp("linux-a", 2, 0)), 0, EXCHANGE_ID4resok.class);

        assertThat(taken.eir_clientid).isNotEqualTo(old.eir_clientid);
        assertThat(status(h.compound(createSessionOp(old.eir_clientid, old.eir_sequenceid + 1))))
                .isEqualTo(NfsStatus.STALE_CLIENTID);
        assertThatThrownBy(() -> h.state.client(old.eir_clientid)).isInstanceOf(StaleClientIdException.class);
    }

    @Test
    void anotherPrincipalWithTheSameVerifierTakesOverAConfirmedOwnerWithoutState() throws Exception {
        EXCHANGE_ID4resok old = confirmedClientWithoutSessions("linux-a");

        EXCHANGE_ID4resok taken = body(h.compound(ALICE, 0, exchangeIdOp("linux-a", 1, 0)), 0, EXCHANGE_ID4resok.class);

        assertThat(taken.eir_clientid).isNotEqualTo(old.eir_clientid);
        assertThat(status(h.compound(ALICE, 0, createSessionOp(taken.eir_clientid, taken.eir_sequenceid))))
                .isEqualTo(NfsStatus.OK);
        assertThatThrownBy(() -> h.state.client(old.eir_clientid)).isInstanceOf(StaleClientIdException.class);
    }

    @Test
    void anotherPrincipalIsClidInUseWhileTheConfirmedOwnerHoldsAnOpen() throws Exception {
        h.clock.advance(h.limits.grace().plusSeconds(1));
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);
        CREATE_SESSION4resok session =
                body(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid)), 0, CREATE_SESSION4resok.class);
        assertThat(status(h.compound(sequenceOp(session.csr_sessionid, 1, 0, false), reclaimCompleteOp())))
                .isEqualTo(NfsStatus.OK);
        assertThat(status(h.compound(sequenceOp(session.csr_sessionid, 2, 0, false), putRootOp(),
                openCreateOp(eid.eir_clientid, "f")))).isEqualTo(NfsStatus.OK);
        assertThat(status(h.compound(destroySessionOp(session.csr_sessionid)))).isEqualTo(NfsStatus.OK);

        assertThat(status(h.compound(ALICE, 0, exchangeIdOp("linux-a", 2, 0)))).isEqualTo(NfsStatus.CLID_INUSE);
        assertThat(h.state.client(eid.eir_clientid).isConfirmed()).isTrue();
    }

    @Test
    void createSessionByAnotherPrincipalAfterConfirmationIsAccepted() throws Exception {
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);
        CREATE_SESSION4resok first =
                body(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid)), 0, CREATE_SESSION4resok.class);

        CREATE_SESSION4resok second = body(h.compound(ALICE, 0,
                createSessionOp(eid.eir_clientid, first.csr_sequence + 1)), 0, CREATE_SESSION4resok.class);

        assertThat(second.csr_sessionid.value).isNotEqualTo(first.csr_sessionid.value);
        assertThat(h.state.client(eid.eir_clientid).sessions()).hasSize(2);
    }
}
