package org.tcnfs.nfs4.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tcnfs.nfs4.rpc.RpcRecordHarness.Outcome;

/**
 * Fuzzes an RPC record as the server receives it ({@link RpcRecordHarness#asTheServerRuns()}): the server's
 * {@link RpcCredentialCheck}, then call header and credential (oncrpc4j), then the NFS program
 * ({@link NfsRpcService}: credential, COMPOUND decoding, reply). Run with a small heap, so that an allocation
 * sized by a claimed length fails as OutOfMemoryError.
 *
 * <p>Property: every record is refused by the credential check with one AUTH_ERROR reply to its xid, dropped
 * without a reply (a header oncrpc4j cannot read), or answered with exactly one reply to its xid; nothing
 * throws.
 */
class RpcCallFuzzTest {
    /** The heap of the fuzz executions (tcnfs.fuzz.heap) is at most this; a larger one may hold a claim. */
    private static final long SMALL_HEAP = 256L << 20;
    private static final int MSG_DENIED = 1;
    private static final int AUTH_ERROR = 1;
    private final RpcRecordHarness harness = RpcRecordHarness.asTheServerRuns();

    @FuzzTest(maxDuration = "20s")
    void everyRecordIsRefusedDroppedOrAnsweredOnce(byte[] record) throws IOException {
        int before = harness.replies().size();
        Outcome outcome = harness.receive(record);
        int sent = harness.replies().size() - before;
        if (outcome == Outcome.DROPPED) {
            assertThat(sent).as("replies to a record that was not answered").isZero();
        } else {
            assertThat(sent).as("replies to one call").isEqualTo(1);
            ByteBuffer reply = ByteBuffer.wrap(harness.replies().get(before));
            assertThat(reply.getInt()).as("xid").isEqualTo(ByteBuffer.wrap(record).getInt());
            assertThat(reply.getInt()).as("message type REPLY").isEqualTo(1);
            if (outcome == Outcome.REFUSED_IN_FRONT) {
                assertThat(reply.getInt()).as("MSG_DENIED").isEqualTo(MSG_DENIED);
                assertThat(reply.getInt()).as("AUTH_ERROR").isEqualTo(AUTH_ERROR);
                assertThat(reply.getInt()).as("auth_stat").isEqualTo(harness.lastVerdict().authStat())
                        .isIn(RpcCredentialCheck.AUTH_BADCRED, RpcCredentialCheck.AUTH_BADVERF);
            }
        }
        harness.replies().clear();
    }

    private static byte[] keptInput(String name) throws IOException {
        try (InputStream in = RpcCallFuzzTest.class.getResourceAsStream(
                "RpcCallFuzzTestInputs/everyRecordIsRefusedDroppedOrAnsweredOnce/" + name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }

    /**
     * The records this target found that make oncrpc4j allocate a claimed length when nothing stands in front
     * of it (OutOfMemoryError in this JVM's small heap): the server's credential check refuses each with
     * AUTH_BADCRED before oncrpc4j reads its credential.
     */
    @ParameterizedTest
    @ValueSource(strings = {"found-auth-sys-body-shorter-than-its-length-then-huge-verifier",
            "found-rpcsec-gss-credential-claiming-a-huge-handle"})
    void everyAllocationTheFuzzerFoundInOncrpc4jAloneIsRefusedByTheCredentialCheck(String name) throws IOException {
        byte[] record = keptInput(name);
        if (Runtime.getRuntime().maxMemory() <= SMALL_HEAP) {
            RpcRecordHarness unchecked = RpcRecordHarness.withoutTheCheck();
            assertThatThrownBy(() -> unchecked.receive(record)).isInstanceOf(OutOfMemoryError.class);
        }
        assertRefusedWithBadCred(record);
    }

    /**
     * The AUTH_TLS records this target found: oncrpc4j starts TLS on the flavor alone, before it reads the
     * credential's length, and without TLS answers AUTH_FAILED (the target's first transport threw
     * NoSuchElementException there, which oncrpc4j 3.4.2's Grizzly transport does not); the credential check
     * now answers AUTH_BADCRED, a flavor this server does not serve, before oncrpc4j sees it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"found-auth-tls-call-on-a-server-without-tls", "found-auth-tls-flavor-then-end-of-record"})
    void anAuthTlsCallIsRefusedByTheCredentialCheckBeforeOncrpc4jStartsTls(String name) throws IOException {
        byte[] record = keptInput(name);
        RpcRecordHarness unchecked = RpcRecordHarness.withoutTheCheck();
        assertThat(unchecked.receive(record)).isEqualTo(Outcome.REPLIED);
        assertThat(ByteBuffer.wrap(unchecked.replies().get(0)).getInt(16)).as("auth_stat without the check")
                .isEqualTo(RpcRecordHarness.AUTH_FAILED);
        assertRefusedWithBadCred(record);
    }

    private static void assertRefusedWithBadCred(byte[] record) throws IOException {
        RpcRecordHarness checked = RpcRecordHarness.asTheServerRuns();
        assertThat(checked.receive(record)).isEqualTo(Outcome.REFUSED_IN_FRONT);
        assertThat(checked.lastVerdict().authStat()).as(checked.lastVerdict().reason())
                .isEqualTo(RpcCredentialCheck.AUTH_BADCRED);
        assertThat(checked.replies()).hasSize(1);
        assertThat(ByteBuffer.wrap(checked.replies().get(0)).getInt(16)).as("auth_stat on the wire")
                .isEqualTo(RpcCredentialCheck.AUTH_BADCRED);
    }

    /** A COMPOUND call whose AUTH_SYS credential claims {@code gids} gids and carries none. */
    private static byte[] callClaimingGids(int gids) {
        ByteBuffer b = ByteBuffer.allocate(60);
        b.putInt(1).putInt(0).putInt(2).putInt(NfsRpcService.NFS_PROGRAM).putInt(4).putInt(1);
        b.putInt(1).putInt(20).putInt(0).putInt(0).putInt(0).putInt(0).putInt(gids); // stamp, "", uid, gid
        b.putInt(0).putInt(0); // verifier AUTH_NONE
        return b.array();
    }

    /** Issue 14, item 1, where this target started: oncrpc4j allocates the gid array a credential claims. */
    @Test
    void aCredentialClaimingTwoToTheThirtyOneGidsMakesOncrpc4jAloneAllocateAndIsRefusedByTheCheck()
            throws IOException {
        assertThatThrownBy(() -> RpcRecordHarness.withoutTheCheck().receive(callClaimingGids(Integer.MAX_VALUE)))
                .isInstanceOf(OutOfMemoryError.class);
        RpcRecordHarness checked = RpcRecordHarness.asTheServerRuns();
        for (int gids : new int[] {Integer.MAX_VALUE, 17, -1}) {
            assertThat(checked.receive(callClaimingGids(gids))).as("%d gids", gids)
                    .isEqualTo(Outcome.REFUSED_IN_FRONT);
        }
    }
}
