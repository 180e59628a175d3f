package org.tcnfs.client.vector;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundHook;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.rpc.NfsServer;
import org.tcnfs.nfs4.status.DelayException;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;

/** A plain call answered NFS4ERR_DELAY before anything ran is resent, as tcnfs answers while locks are busy. */
class DelayRetryTest {
    private NfsServer server;
    private final InMemoryFileSystem fs = new InMemoryFileSystem();

    /** A server that answers DELAY at the first operation after SEQUENCE of the first {@code delays} compounds with an OPEN. */
    private VnfsClient connect(int delays, int delayAtOp) throws IOException {
        AtomicInteger left = new AtomicInteger(delays);
        NfsLimits d = NfsLimits.DEFAULTS;
        NfsLimits noGrace = new NfsLimits(d.maxOperations(), d.maxRequestBytes(), d.maxResponseBytes(), d.maxRead(),
                d.maxWrite(), d.maxSessionSlots(), d.lease(), Duration.ZERO);
        server = NfsServer.builder().fileSystems((credential, client) -> fs).limits(noGrace).bind("127.0.0.1", 0)
                .hook(new CompoundHook() {
                    @Override
                    public void beforeCompound(CompoundContext context, COMPOUND4args args) {
                        OPENS.set(Arrays.stream(args.argarray).anyMatch(op -> op.argop == nfs_opnum4.OP_OPEN));
                    }

                    @Override
                    public void beforeOp(CompoundContext context, int index, nfs_argop4 op) throws IOException {
                        if (index == delayAtOp && OPENS.get() && left.getAndDecrement() > 0) {
                            throw new DelayException("locks busy (test)");
                        }
                    }
                }).build();
        server.start();
        return VnfsClient.builder().host("127.0.0.1").port(server.port()).connect();
    }

    /** Whether the compound running on this thread opens a file. */
    private static final ThreadLocal<Boolean> OPENS = ThreadLocal.withInitial(() -> false);

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aPlainWriteDelayedBeforeAnyOperationRanIsResentAndSucceeds() throws IOException {
        try (VnfsClient nfs = connect(2, 1)) {
            VResult<Void> r = nfs.vwrite(List.of(VWrite.create("/a", bytes("one")),
                    VWrite.create("/b", bytes("two"))), Mode.PLAIN);
            assertThat(r.isOk()).as("%s", r).isTrue();
            assertThat(r.compounds()).isEqualTo(3);
        }
    }

    @Test
    void aPlainWriteDelayedAfterOperationsRanIsNotResent() throws IOException {
        try (VnfsClient nfs = connect(1, 3)) {
            VResult<Void> r = nfs.vwrite(List.of(VWrite.create("/a", bytes("one"))), Mode.PLAIN);
            assertThat(r.isOk()).isFalse();
            assertThat(r.compounds()).isEqualTo(1);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
