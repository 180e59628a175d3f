package org.tcnfs.client.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundHook;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.rpc.NfsServer;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;

/**
 * A compound whose reply comes after the client's timeout is waited for while a retry of it (same slot, same
 * sequence id) is answered NFS4ERR_DELAY (RFC 8881 2.10.6.2), up to the client's longest wait; past that the
 * client says what is known instead of "lost connection".
 */
class LateReplyTest {
    private NfsServer server;
    private final InMemoryFileSystem fs = new InMemoryFileSystem();
    private final AtomicInteger slowCompounds = new AtomicInteger();

    /** A server on which every OPEN takes {@code slow} (after SEQUENCE admitted its compound). */
    private VnfsClient connect(Duration slow, Duration timeout, Duration maxWait) throws IOException {
        NfsLimits d = NfsLimits.DEFAULTS;
        NfsLimits noGrace = new NfsLimits(d.maxOperations(), d.maxRequestBytes(), d.maxResponseBytes(), d.maxRead(),
                d.maxWrite(), d.maxSessionSlots(), d.lease(), Duration.ZERO);
        server = NfsServer.builder().fileSystems((credential, client) -> fs).limits(noGrace).bind("127.0.0.1", 0)
                .hook(new CompoundHook() {
                    @Override
                    public void beforeOp(CompoundContext context, int index, nfs_argop4 op) {
                        if (op.argop == nfs_opnum4.OP_OPEN) {
                            slowCompounds.incrementAndGet();
                            try {
                                Thread.sleep(slow.toMillis());
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                    }
                }).build();
        server.start();
        return VnfsClient.builder().host("127.0.0.1").port(server.port()).timeout(timeout).maxWait(maxWait).connect();
    }

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aCompoundSlowerThanTheTimeoutIsWaitedForAndRunsOnce() throws IOException {
        try (VnfsClient nfs = connect(Duration.ofMillis(2500), Duration.ofSeconds(1), Duration.ofSeconds(10))) {
            VResult<Void> r = nfs.vwrite(List.of(VWrite.create("/a", bytes("one"))), Mode.PLAIN);

            assertThat(r.isOk()).as("%s", r).isTrue();
            assertThat(slowCompounds.get()).as("compounds that ran (a retry is answered, never run)").isEqualTo(1);
            // the slot and its sequence id are still good for the next compound
            assertThat(nfs.vwrite(List.of(VWrite.create("/b", bytes("two"))), Mode.PLAIN).isOk()).isTrue();
        }
    }

    @Test
    void aCompoundSlowerThanTheLongestWaitFailsSayingWhatIsKnown() throws IOException {
        try (VnfsClient nfs = connect(Duration.ofMillis(4000), Duration.ofSeconds(1), Duration.ofSeconds(2))) {
            assertThatThrownBy(() -> nfs.vwrite(List.of(VWrite.create("/a", bytes("one"))), Mode.PLAIN))
                    .isInstanceOfSatisfying(LateReplyException.class, e -> {
                        assertThat(e.outcome()).isEqualTo(LateReplyException.Known.SOME_DONE);
                        assertThat(e.getMessage()).contains("did not answer within 2 s")
                                .contains("that it was still working on it");
                    });
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
