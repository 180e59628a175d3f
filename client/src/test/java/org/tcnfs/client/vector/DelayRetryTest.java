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
import org.tcnfs.nfs4.status.GraceException;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;

/**
 * A call answered NFS4ERR_DELAY (tcnfs: locks busy) or NFS4ERR_GRACE (the grace period after a restart) where
 * nothing of it ran is resent with growing pauses, up to the client's timeout (issue 17).
 */
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

    /**
     * A server that answers {@code status} (DELAY or GRACE) to the {@code nth} OPEN (1 the first) of the first
     * {@code refusals} compounds holding that many OPENs; the client waits at most {@code timeout}.
     */
    private VnfsClient connectRefusingOpen(int refusals, int nth, boolean grace, Duration timeout) throws IOException {
        AtomicInteger left = new AtomicInteger(refusals);
        ThreadLocal<Integer> opens = ThreadLocal.withInitial(() -> 0);
        NfsLimits d = NfsLimits.DEFAULTS;
        NfsLimits noGrace = new NfsLimits(d.maxOperations(), d.maxRequestBytes(), d.maxResponseBytes(), d.maxRead(),
                d.maxWrite(), d.maxSessionSlots(), d.lease(), Duration.ZERO);
        server = NfsServer.builder().fileSystems((credential, client) -> fs).limits(noGrace).bind("127.0.0.1", 0)
                .hook(new CompoundHook() {
                    @Override
                    public void beforeCompound(CompoundContext context, COMPOUND4args args) {
                        opens.set(0);
                    }

                    @Override
                    public void beforeOp(CompoundContext context, int index, nfs_argop4 op) throws IOException {
                        if (op.argop == nfs_opnum4.OP_OPEN) {
                            opens.set(opens.get() + 1);
                            if (opens.get() == nth && left.getAndDecrement() > 0) {
                                throw grace ? new GraceException("grace (test)") : new DelayException("busy (test)");
                            }
                        }
                    }
                }).build();
        server.start();
        return VnfsClient.builder().host("127.0.0.1").port(server.port()).timeout(timeout).connect();
    }

    @Test
    void aPlainWriteRefusedWithGraceIsResentUntilTheServerTakesIt() throws IOException {
        try (VnfsClient nfs = connectRefusingOpen(5, 1, true, Duration.ofSeconds(30))) {
            VResult<Void> r = nfs.vwrite(List.of(VWrite.create("/a", bytes("one"))), Mode.PLAIN);

            assertThat(r.isOk()).as("%s", r).isTrue();
            assertThat(r.compounds()).isEqualTo(6);
        }
    }

    @Test
    void aReadRefusedWithGraceIsResentUntilTheServerTakesIt() throws IOException {
        try (VnfsClient nfs = connectRefusingOpen(0, 1, true, Duration.ofSeconds(30))) {
            nfs.vwrite(List.of(VWrite.create("/r", bytes("read me"))), Mode.PLAIN).orThrow();
        }
        server.close();
        try (VnfsClient nfs = connectRefusingOpen(3, 1, true, Duration.ofSeconds(30))) {
            VResult<byte[]> r = nfs.vread(List.of(VRead.whole("/r")), Mode.PLAIN);

            assertThat(r.isOk()).as("%s", r).isTrue();
            assertThat(new String(r.value(0), StandardCharsets.UTF_8)).isEqualTo("read me");
        }
    }

    @Test
    void anItemDelayedAfterEarlierItemsOfItsCompoundRanIsResentAloneAndTheEarlierOnesOnce() throws IOException {
        try (VnfsClient nfs = connectRefusingOpen(2, 2, false, Duration.ofSeconds(30))) {
            VResult<Void> r = nfs.vwrite(List.of(VWrite.append("/log", bytes("first\n")),
                    VWrite.append("/other", bytes("second\n"))), Mode.PLAIN);

            assertThat(r.isOk()).as("%s", r).isTrue();
            VResult<byte[]> back = nfs.vread(List.of(VRead.whole("/log"), VRead.whole("/other")), Mode.PLAIN);
            assertThat(new String(back.value(0), StandardCharsets.UTF_8)).isEqualTo("first\n");
            assertThat(new String(back.value(1), StandardCharsets.UTF_8)).isEqualTo("second\n");
        }
    }

    @Test
    void retriesStopAtTheTimeoutWithTheServersStatus() throws IOException {
        try (VnfsClient nfs = connectRefusingOpen(Integer.MAX_VALUE, 1, true, Duration.ofSeconds(1))) {
            long start = System.nanoTime();
            VResult<Void> r = nfs.vwrite(List.of(VWrite.create("/never", bytes("x"))), Mode.PLAIN);
            long millis = (System.nanoTime() - start) / 1_000_000;

            assertThat(r.isOk()).isFalse();
            assertThat(r.item(0).status()).isEqualTo(org.tcnfs.nfs4.status.NfsStatus.GRACE);
            assertThat(millis).isBetween(900L, 5_000L);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
