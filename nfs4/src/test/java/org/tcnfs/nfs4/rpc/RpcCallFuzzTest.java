package org.tcnfs.nfs4.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tcnfs.nfs4.rpc.RpcRecordHarness.Outcome;

/**
 * Fuzzes an RPC record as the server receives it: call header and credential (oncrpc4j), then the NFS
 * program ({@link NfsRpcService}: credential, COMPOUND decoding, reply). Run with a small heap, so that an
 * allocation sized by a claimed length fails as OutOfMemoryError.
 *
 * <p>Property: every record ends refused by the check in front of oncrpc4j, dropped without a reply (a
 * header oncrpc4j cannot read), or with exactly one well-formed reply to its xid; nothing throws.
 *
 * <p>The check in front is {@link AuthSysLimitsStandIn} until the server's own credential check exists; a
 * second target with that check then replaces this one's stand-in (one fuzz test per class: Jazzer fuzzes
 * one per JVM).
 */
class RpcCallFuzzTest {
    /** The heap of the fuzz executions (tcnfs.fuzz.heap) is at most this; a larger one may hold a claim. */
    private static final long SMALL_HEAP = 256L << 20;
    private final RpcRecordHarness harness = new RpcRecordHarness(new AuthSysLimitsStandIn());

    @FuzzTest(maxDuration = "20s")
    void everyRecordIsRefusedDroppedOrAnsweredOnce(byte[] record) throws IOException {
        int before = harness.replies().size();
        Outcome outcome = harness.receive(record);
        int sent = harness.replies().size() - before;
        if (outcome == Outcome.REPLIED) {
            assertThat(sent).as("replies to one call").isEqualTo(1);
            ByteBuffer reply = ByteBuffer.wrap(harness.replies().get(before));
            assertThat(reply.getInt()).as("xid").isEqualTo(ByteBuffer.wrap(record).getInt());
            assertThat(reply.getInt()).as("message type REPLY").isEqualTo(1);
        } else {
            assertThat(sent).as("replies to a record that was not answered").isZero();
        }
        harness.replies().clear();
    }

    /**
     * The records this target found, kept with its inputs ({@code found-*}): each makes oncrpc4j allocate a
     * claimed length (OutOfMemoryError in this JVM's small heap) or fail unchecked when nothing stands in
     * front of it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"found-auth-sys-body-shorter-than-its-length-then-huge-verifier",
            "found-rpcsec-gss-credential-claiming-a-huge-handle", "found-auth-tls-call-on-a-server-without-tls",
            "found-auth-tls-flavor-then-end-of-record"})
    void everyRecordTheFuzzerFoundBreaksOncrpc4jAloneAndIsRefusedInFront(String name) throws IOException {
        byte[] record;
        try (InputStream in = getClass().getResourceAsStream(
                "RpcCallFuzzTestInputs/everyRecordIsRefusedDroppedOrAnsweredOnce/" + name)) {
            assertThat(in).as(name).isNotNull();
            record = in.readAllBytes();
        }
        if (Runtime.getRuntime().maxMemory() <= SMALL_HEAP) {
            RpcRecordHarness unchecked = new RpcRecordHarness(r -> true);
            assertThatThrownBy(() -> unchecked.receive(record))
                    .isInstanceOfAny(OutOfMemoryError.class, java.util.NoSuchElementException.class);
        }
        assertThat(new RpcRecordHarness(new AuthSysLimitsStandIn()).receive(record))
                .isEqualTo(Outcome.REFUSED_IN_FRONT);
    }
}
