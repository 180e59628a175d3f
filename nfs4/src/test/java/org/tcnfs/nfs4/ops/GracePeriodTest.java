package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.ops.SessionHarness.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.state.NfsSession;
import org.tcnfs.nfs4.state.SessionId;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4resok;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4resok;

/**
 * The grace period after a start (RFC 8881 8.4.2) and the client record that lets it end early: each
 * "restart" is a new harness over the same record directory.
 */
class GracePeriodTest {
    private static final NfsLimits LIMITS = new NfsLimits(4096, 16 << 20, 16 << 20, 1 << 20, 1 << 20, 64,
            Duration.ofSeconds(90), Duration.ofSeconds(90));

    @TempDir
    Path dir;

    @Test
    void withoutRecordGraceRunsItsWholeTime() {
        try (SessionHarness h = new SessionHarness(LIMITS, null)) {
            assertThat(h.state.inGrace()).isTrue();
            h.clock.advance(Duration.ofSeconds(89));
            assertThat(h.state.inGrace()).isTrue();
            h.clock.advance(Duration.ofSeconds(1));
            assertThat(h.state.inGrace()).isFalse();
        }
    }

    @Test
    void graceOfZeroMeansNoGrace() {
        NfsLimits noGrace = new NfsLimits(4096, 16 << 20, 16 << 20, 1 << 20, 1 << 20, 64,
                Duration.ofSeconds(90), Duration.ZERO);
        try (SessionHarness h = new SessionHarness(noGrace, null)) {
            assertThat(h.state.inGrace()).isFalse();
        }
    }

    @Test
    void firstStartWithRecordDirectoryHasNoGrace() {
        try (SessionHarness h = new SessionHarness(LIMITS, dir)) {
            assertThat(h.state.inGrace()).isFalse();
        }
    }

    @Test
    void graceEndsAtOnceWhenThePreviousRunRecordedNoClients() throws Exception {
        try (SessionHarness first = new SessionHarness(LIMITS, dir)) {
            first.exchangeId("never-confirmed", 1);
        }
        try (SessionHarness second = new SessionHarness(LIMITS, dir)) {
            assertThat(second.state.inGrace()).isFalse();
        }
    }

    @Test
    void graceLastsWhileRecordedClientsHaveNotReclaimedAndEndsWhenAllHave() throws Exception {
        try (SessionHarness first = new SessionHarness(LIMITS, dir)) {
            first.newSession("linux-a");
            first.newSession("linux-b");
        }
        try (SessionHarness second = new SessionHarness(LIMITS, dir)) {
            assertThat(second.state.inGrace()).isTrue();

            CREATE_SESSION4resok a = second.newSession("linux-a");
            NfsSession sessionA = second.state.session(new SessionId(a.csr_sessionid.value));
            assertThat(second.state.canReclaim(sessionA.client())).isTrue();
            assertThat(status(second.compound(sequenceOp(a.csr_sessionid, 1, 0, true), reclaimCompleteOp())))
                    .isEqualTo(NfsStatus.OK);
            assertThat(second.state.canReclaim(sessionA.client())).isFalse();
            assertThat(second.state.inGrace()).as("linux-b has not reclaimed").isTrue();

            CREATE_SESSION4resok b = second.newSession("linux-b");
            second.compound(sequenceOp(b.csr_sessionid, 1, 0, true), reclaimCompleteOp());

            assertThat(second.state.inGrace()).isFalse();
        }
    }

    @Test
    void graceWithARecordedClientThatNeverReturnsEndsWithTheTime() throws Exception {
        try (SessionHarness first = new SessionHarness(LIMITS, dir)) {
            first.newSession("linux-a");
        }
        try (SessionHarness second = new SessionHarness(LIMITS, dir)) {
            CREATE_SESSION4resok other = second.newSession("newcomer");
            NfsSession newcomer = second.state.session(new SessionId(other.csr_sessionid.value));
            assertThat(second.state.canReclaim(newcomer.client())).as("not recorded by the previous run").isFalse();

            second.clock.advance(Duration.ofSeconds(89));
            assertThat(second.state.inGrace()).isTrue();
            second.clock.advance(Duration.ofSeconds(1));
            assertThat(second.state.inGrace()).isFalse();
        }
    }

    @Test
    void destroyedOrExpiredClientsAreDroppedFromTheRecord() throws Exception {
        try (SessionHarness first = new SessionHarness(LIMITS, dir)) {
            EXCHANGE_ID4resok eid = first.exchangeId("linux-a", 1);
            CREATE_SESSION4resok s = body(first.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid)), 0,
                    CREATE_SESSION4resok.class);
            first.newSession("linux-b");
            first.compound(destroySessionOp(s.csr_sessionid));
            first.compound(destroyClientIdOp(eid.eir_clientid));
            first.clock.advance(LIMITS.lease().plusSeconds(1));
            first.state.reapExpired();
        }
        try (SessionHarness second = new SessionHarness(LIMITS, dir)) {
            assertThat(second.state.inGrace()).isFalse();
        }
    }

    @Test
    void damagedRecordMakesGraceRunItsWholeTime() throws Exception {
        try (SessionHarness first = new SessionHarness(LIMITS, dir)) {
            first.newSession("linux-a");
        }
        Path record = dir.resolve("clients");
        String content = Files.readString(record, StandardCharsets.UTF_8);
        Files.writeString(record, content.substring(0, content.length() / 2), StandardCharsets.UTF_8);

        try (SessionHarness second = new SessionHarness(LIMITS, dir)) {
            CREATE_SESSION4resok a = second.newSession("linux-a");
            second.compound(sequenceOp(a.csr_sessionid, 1, 0, true), reclaimCompleteOp());
            assertThat(second.state.inGrace()).as("unknown who else may reclaim").isTrue();
            second.clock.advance(LIMITS.grace());
            assertThat(second.state.inGrace()).isFalse();
        }
    }

    @Test
    void serverOwnerStaysTheSameAcrossRestartsOfOneInstall() throws Exception {
        byte[] before;
        try (SessionHarness first = new SessionHarness(LIMITS, dir)) {
            before = first.exchangeId("linux-a", 1).eir_server_owner.so_major_id;
        }
        try (SessionHarness second = new SessionHarness(LIMITS, dir)) {
            assertThat(second.exchangeId("linux-a", 1).eir_server_owner.so_major_id).isEqualTo(before);
        }
        try (SessionHarness otherInstall = new SessionHarness(LIMITS, dir.resolve("other"))) {
            assertThat(otherInstall.exchangeId("linux-a", 1).eir_server_owner.so_major_id).isNotEqualTo(before);
        }
    }

    @Test
    void leaseReaperRunsOnADaemonThread() {
        try (SessionHarness h = new SessionHarness(LIMITS, null)) {
            assertThat(Thread.getAllStackTraces().keySet())
                    .filteredOn(t -> t.getName().equals("tcnfs-lease-reaper"))
                    .isNotEmpty()
                    .allMatch(Thread::isDaemon);
        }
    }
}
