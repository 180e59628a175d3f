package org.tcnfs.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_ILLEGAL;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LOOKUP;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_PUTROOTFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SEQUENCE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_WRITE;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundEngine;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.compound.OperationExecutor;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.status.NoEntException;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.WRITE4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.verifier4;

/**
 * The hook inside the real compound engine (NFSv4.1: every compound starts with SEQUENCE). The operations
 * are stand-ins: what they do is not under test, only that the engine ran them and with which status; the
 * stand-in SEQUENCE answers from the "reply cache" when a test asks it to.
 */
class MetricsHookTest {
    private static final COMPOUND4res CACHED = new COMPOUND4res();

    private final AtomicBoolean replayNext = new AtomicBoolean();

    private final Map<Integer, NfsOperation> ops = Map.of(
            OP_PUTROOTFH, (context, op, result) -> { },
            OP_LOOKUP, (context, op, result) -> {
                throw new NoEntException();
            },
            OP_READ, (context, op, result) -> result.body = new READ4resok(true, ByteBuffer.wrap(new byte[100])),
            OP_WRITE, (context, op, result) -> result.body = new WRITE4resok(42, 2, new verifier4()),
            OP_SEQUENCE, (context, op, result) -> {
                if (replayNext.get()) {
                    context.setReplay(CACHED);
                }
            });

    private TcnfsMetrics metrics;
    private MeterRegistry registry;
    private CompoundEngine engine;
    private StateHandler state;
    private ServerContext server;

    @BeforeEach
    void engineWithTheHook() {
        metrics = TcnfsMetrics.create();
        registry = metrics.registry();
        engine = new CompoundEngine(OperationExecutor.of(ops), List.of(new MetricsHook(metrics)), Set.of(1));
        state = new StateHandler(NfsLimits.DEFAULTS, Clock.systemUTC());
        InMemoryFileSystem fs = new InMemoryFileSystem();
        server = new ServerContext((credential, client) -> fs, state, NfsLimits.DEFAULTS, Clock.systemUTC());
    }

    @AfterEach
    void close() {
        state.close();
        metrics.close();
    }

    /** Runs SEQUENCE and then {@code opcodes}. */
    private COMPOUND4res run(int... opcodes) {
        COMPOUND4args args = new COMPOUND4args();
        args.minorversion = 1;
        args.argarray = new nfs_argop4[opcodes.length + 1];
        args.argarray[0] = new nfs_argop4(OP_SEQUENCE, null);
        for (int i = 0; i < opcodes.length; i++) {
            args.argarray[i + 1] = new nfs_argop4(opcodes[i], null);
        }
        CompoundContext context = CompoundContext.builder()
                .server(server)
                .minorVersion(1)
                .credential(Credential.ROOT)
                .clientAddress(InetAddress.getLoopbackAddress())
                .connection(new Object())
                .build();
        return engine.process(context, args);
    }

    private double ops(String op, String status) {
        return registry.get("tcnfs.ops").tags("op", op, "status", status).counter().count();
    }

    private double compounds(String status) {
        return registry.get("tcnfs.compounds").tags("status", status).counter().count();
    }

    @Test
    void compoundsAndOpsAreCountedByStatusName() {
        run(OP_PUTROOTFH, OP_READ);
        run(OP_PUTROOTFH, OP_LOOKUP, OP_READ);

        assertThat(compounds("NFS4_OK")).isEqualTo(1);
        assertThat(compounds("NFS4ERR_NOENT")).isEqualTo(1);
        assertThat(ops("SEQUENCE", "NFS4_OK")).isEqualTo(2);
        assertThat(ops("PUTROOTFH", "NFS4_OK")).isEqualTo(2);
        assertThat(ops("LOOKUP", "NFS4ERR_NOENT")).isEqualTo(1);
        assertThat(ops("READ", "NFS4_OK")).as("the READ after the failed LOOKUP never ran").isEqualTo(1);
    }

    @Test
    void operationAndStatusNumbersBeyondTheCachedRangesAreCountedUnderTheirNames() {
        MetricsHook hook = new MetricsHook(metrics);
        record(hook, OP_ILLEGAL, NfsStatus.OP_ILLEGAL.code());
        record(hook, OP_ILLEGAL, NfsStatus.OP_ILLEGAL.code());
        record(hook, 12_345, 12_345);
        record(hook, OP_LOOKUP, NfsStatus.NOENT.code());
        record(hook, OP_LOOKUP, NfsStatus.BADNAME.code());

        assertThat(ops("ILLEGAL", "NFS4ERR_OP_ILLEGAL")).isEqualTo(2);
        assertThat(registry.get("tcnfs.op").tags("op", "ILLEGAL").timer().count()).isEqualTo(2);
        assertThat(registry.get("tcnfs.ops").tags("op", "UNKNOWN").counter().count()).isEqualTo(1);
        assertThat(ops("LOOKUP", "NFS4ERR_NOENT")).isEqualTo(1);
        assertThat(ops("LOOKUP", "NFS4ERR_BADNAME")).isEqualTo(1);
        assertThat(registry.get("tcnfs.op").tags("op", "LOOKUP").timer().count()).isEqualTo(2);
    }

    /** One operation through the hook, outside a compound's first position (no replay to look at). */
    private static void record(MetricsHook hook, int opcode, int status) {
        nfs_argop4 op = new nfs_argop4(opcode, null);
        hook.beforeOp(null, 1, op);
        hook.afterOp(null, 1, op, new nfs_resop4(opcode, status, null));
    }

    @Test
    void latenciesAndOpsPerCompoundAreRecorded() {
        run(OP_PUTROOTFH, OP_READ, OP_READ);
        run(OP_PUTROOTFH);

        assertThat(registry.get("tcnfs.compound").timer().count()).isEqualTo(2);
        assertThat(registry.get("tcnfs.op").tags("op", "READ").timer().count()).isEqualTo(2);
        assertThat(registry.get("tcnfs.op").tags("op", "PUTROOTFH").timer().count()).isEqualTo(2);
        assertThat(registry.get("tcnfs.compound.ops").summary().totalAmount()).isEqualTo(6);
        assertThat(registry.get("tcnfs.compound.ops").summary().max()).isEqualTo(4);
    }

    @Test
    void bytesOfReadAndWriteAreCounted() {
        run(OP_PUTROOTFH, OP_READ, OP_WRITE, OP_WRITE);

        assertThat(registry.get("tcnfs.io").tags("op", "READ").counter().count()).isEqualTo(100);
        assertThat(registry.get("tcnfs.io").tags("op", "WRITE").counter().count()).isEqualTo(84);
    }

    @Test
    void replayIsCountedApartFromCompounds() {
        replayNext.set(true);

        COMPOUND4res res = run(OP_PUTROOTFH);

        assertThat(res).isSameAs(CACHED);
        assertThat(registry.get("tcnfs.compound.replays").counter().count()).isEqualTo(1);
        assertThat(registry.find("tcnfs.compounds").counters()).isEmpty();
    }

    @Test
    void operationNumbersTheServerDoesNotRunAreAnsweredBeforeTheHooksAndGetNoLabelOfTheirOwn() {
        // the engine answers a number it does not implement (NFS4ERR_NOTSUPP, or OP_ILLEGAL) before the hooks run,
        // so no per-operation series is made for it: a client cannot add series by sending made-up numbers
        run(OP_PUTROOTFH, 9999);
        run(OP_PUTROOTFH, 12345);

        assertThat(registry.find("tcnfs.ops").tag("op", "UNKNOWN").counters()).isEmpty();
        assertThat(registry.find("tcnfs.op").timers()).extracting(t -> t.getId().getTag("op"))
                .containsExactlyInAnyOrder("SEQUENCE", "PUTROOTFH");
        assertThat(registry.get("tcnfs.compounds").counters().stream().mapToDouble(Counter::count).sum())
                .isEqualTo(2);
    }

    @Test
    void scrapeShowsThePrometheusNames() {
        run(OP_PUTROOTFH, OP_LOOKUP);

        String text = metrics.scrape();

        assertThat(text)
                .contains("tcnfs_compounds_total{status=\"NFS4ERR_NOENT\"} 1")
                .contains("tcnfs_ops_total{op=\"LOOKUP\",status=\"NFS4ERR_NOENT\"} 1")
                .contains("tcnfs_op_seconds_bucket{op=\"PUTROOTFH\",le=\"0.001\"}")
                .contains("tcnfs_compound_seconds_count 1")
                .contains("tcnfs_compound_ops_bucket{le=\"2.0\"} 0")
                .contains("tcnfs_compound_ops_bucket{le=\"4.0\"} 1")
                .contains("tcnfs_compound_replays_total 0")
                .contains("tcnfs_io_bytes_total{op=\"WRITE\"} 0")
                .contains("jvm_memory_used_bytes");
    }
}
