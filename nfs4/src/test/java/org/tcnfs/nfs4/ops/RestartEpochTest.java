package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.nfs4.ops.SessionHarness.*;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.state.StateId;
import org.tcnfs.nfs4.status.BadStateIdException;
import org.tcnfs.nfs4.status.StaleClientIdException;
import org.tcnfs.nfs4.status.StaleStateIdException;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4resok;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4resok;
import org.tcnfs.nfs4.xdr.OPEN4resok;

/**
 * Client ids and stateids of a previous start are stale after a restart, also when the restart falls into
 * the same second as the start before it (each harness is a start at the same instant of its clock, over
 * the same record directory).
 */
class RestartEpochTest {
    private static final NfsLimits LIMITS = new NfsLimits(4096, 16 << 20, 16 << 20, 1 << 20, 1 << 20, 64,
            Duration.ofSeconds(90), Duration.ofSeconds(90));

    @TempDir
    Path dir;

    /** A stateid of an open that the client of {@code owner} made in {@code h}, and its client id. */
    private static Issued openIn(SessionHarness h, String owner) throws Exception {
        EXCHANGE_ID4resok eid = h.exchangeId(owner, 1);
        CREATE_SESSION4resok session =
                body(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid)), 0, CREATE_SESSION4resok.class);
        h.compound(sequenceOp(session.csr_sessionid, 1, 0, false), reclaimCompleteOp());
        OPEN4resok open = body(h.compound(sequenceOp(session.csr_sessionid, 2, 0, false), putRootOp(),
                openCreateOp(eid.eir_clientid, "f-" + owner)), 2, OPEN4resok.class);
        return new Issued(eid.eir_clientid, StateId.of(open.stateid));
    }

    private record Issued(long clientId, StateId stateId) {
    }

    @Test
    void aRestartWithinTheSameSecondMakesThePreviousClientIdsAndStateidsStale() throws Exception {
        Issued before;
        try (SessionHarness first = new SessionHarness(LIMITS, dir)) {
            before = openIn(first, "linux-a");
            assertThat(first.state.opens().unknownStateId(before.stateId()))
                    .as("an unknown stateid of this start").isInstanceOf(BadStateIdException.class);
        }
        try (SessionHarness second = new SessionHarness(LIMITS, dir)) {
            assertThat(second.clock.millis() / 1000).as("the same second").isEqualTo(1_700_000_000L);
            assertThatThrownBy(() -> second.state.client(before.clientId())).isInstanceOf(StaleClientIdException.class);
            assertThat(second.state.opens().unknownStateId(before.stateId())).isInstanceOf(StaleStateIdException.class);

            EXCHANGE_ID4resok again = second.exchangeId("linux-b", 1);
            assertThat(again.eir_clientid).isNotEqualTo(before.clientId());
        }
    }

    @Test
    void everyStartOverTheSameDirectoryIssuesDifferentClientIds() throws Exception {
        long[] ids = new long[3];
        for (int i = 0; i < ids.length; i++) {
            try (SessionHarness h = new SessionHarness(LIMITS, dir)) {
                ids[i] = h.exchangeId("linux-a", 1).eir_clientid;
            }
        }
        assertThat(ids).doesNotHaveDuplicates();
    }
}
