package org.tcnfs.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundHook;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.WRITE4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * Counts and times COMPOUNDs and their operations.
 *
 * <p>Meters (Prometheus names):
 * <ul>
 *   <li>{@code tcnfs_compounds_total{status}}: compounds the engine ran to the end, by final status;
 *   <li>{@code tcnfs_compound_seconds}: their latency, first operation to reply (histogram);
 *   <li>{@code tcnfs_compound_ops}: operations per compound (histogram);
 *   <li>{@code tcnfs_compound_replays_total}: retransmissions answered from a session's reply cache
 *       (not counted in {@code tcnfs_compounds_total});
 *   <li>{@code tcnfs_ops_total{op,status}}: operations run, by RFC operation name and status name;
 *   <li>{@code tcnfs_op_seconds{op}}: their latency (histogram);
 *   <li>{@code tcnfs_io_bytes_total{op}}: bytes READ returned and WRITE wrote.
 * </ul>
 * Operations the engine refuses by their position (SEQUENCE rules) never run and are not counted; a
 * compound ended early by another hook's {@code beforeCompound} is not counted either.
 *
 * <p>Thread-safe: the hook runs on every request thread at once; timings are kept per thread, meters are
 * created once per label combination and cached in arrays indexed by operation and status number (the numbers the
 * RFCs define; any other goes through a map), so recording looks nothing up by a boxed key.
 */
public final class MetricsHook implements CompoundHook {
    private static final String UNKNOWN_OP = "UNKNOWN";
    private static final int UNKNOWN_KEY = -1;
    private static final double[] OPS_BUCKETS = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};

    /** Operation numbers below this have their meters in {@link #opMeters}: all of RFC 8881's and 7862's. */
    private static final int OP_SLOTS = 128;

    private final TcnfsMetrics metrics;
    private final ByStatus compounds;
    private final AtomicReferenceArray<OpMeters> opMeters = new AtomicReferenceArray<>(OP_SLOTS);
    /** Meters of {@code OP_ILLEGAL} and of {@link #UNKNOWN_KEY}. */
    private final Map<Integer, OpMeters> otherOpMeters = new ConcurrentHashMap<>();
    private final Timer compoundTimer;
    private final DistributionSummary opsPerCompound;
    private final Counter replays;
    private final Counter readBytes;
    private final Counter writeBytes;
    private final ThreadLocal<long[]> started = ThreadLocal.withInitial(() -> new long[2]);

    /** Registers the compound-wide meters in {@code metrics}; per-op meters appear with their first use. */
    public MetricsHook(TcnfsMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.compounds = new ByStatus(status -> metrics.counter("tcnfs.compounds",
                "COMPOUNDs run to the end, by final status", "status", NfsStatus.nameOf(status)));
        this.compoundTimer = metrics.timer("tcnfs.compound", "Latency of COMPOUNDs, first operation to reply");
        this.opsPerCompound = metrics.summary("tcnfs.compound.ops", "Operations per COMPOUND", null, OPS_BUCKETS);
        this.replays = metrics.counter("tcnfs.compound.replays",
                "Retransmitted COMPOUNDs answered from a session's reply cache");
        this.readBytes = metrics.byteCounter("tcnfs.io", "Bytes read and written by READ and WRITE", "op", "READ");
        this.writeBytes = metrics.byteCounter("tcnfs.io", "Bytes read and written by READ and WRITE", "op", "WRITE");
    }

    @Override
    public void beforeCompound(CompoundContext context, COMPOUND4args args) {
        started.get()[0] = System.nanoTime();
    }

    @Override
    public void beforeOp(CompoundContext context, int index, nfs_argop4 op) {
        started.get()[1] = System.nanoTime();
    }

    /** Meters change no object. */
    @Override
    public boolean keepsObjectsAround(CompoundContext context, int index, nfs_argop4 op) {
        return true;
    }

    @Override
    public void afterOp(CompoundContext context, int index, nfs_argop4 op, nfs_resop4 result) {
        long elapsed = System.nanoTime() - started.get()[1];
        OpMeters meters = opMeters(op.argop);
        meters.timer.record(elapsed, TimeUnit.NANOSECONDS);
        meters.byStatus.counter(result.status).increment();
        if (result.status == NfsStatus.OK.code()) {
            if (result.body instanceof READ4resok read) {
                readBytes.increment(read.data.remaining());
            } else if (result.body instanceof WRITE4resok write) {
                writeBytes.increment(Integer.toUnsignedLong(write.count));
            }
        }
        if (index == 0 && context.replay() != null) {
            replays.increment();
        }
    }

    @Override
    public void afterCompound(CompoundContext context, COMPOUND4res res) {
        compoundTimer.record(System.nanoTime() - started.get()[0], TimeUnit.NANOSECONDS);
        opsPerCompound.record(res.resarray.length);
        compounds.counter(res.status).increment();
    }

    /** The meters of operation number {@code op}, made on its first use. */
    private OpMeters opMeters(int op) {
        if (op >= 0 && op < OP_SLOTS) {
            OpMeters meters = opMeters.get(op);
            if (meters == null) {
                // a race makes two holders of the same registered meters (the registry returns the one it has)
                meters = new OpMeters(labelKey(op));
                opMeters.set(op, meters);
            }
            return meters;
        }
        return otherOpMeters.computeIfAbsent(labelKey(op), OpMeters::new);
    }

    /** The timer and the counters by status of one operation label. */
    private final class OpMeters {
        final Timer timer;
        final ByStatus byStatus;

        OpMeters(int opKey) {
            String name = opName(opKey);
            this.timer = metrics.timer("tcnfs.op", "Latency of operations", "op", name);
            this.byStatus = new ByStatus(status -> metrics.counter("tcnfs.ops",
                    "Operations run, by operation and status", "op", name, "status", NfsStatus.nameOf(status)));
        }
    }

    /**
     * Counters by NFS status, each made on first use: statuses 0-99 and 10000-10099 (all the RFCs define) in an
     * array, any other in a map.
     */
    private static final class ByStatus {
        private static final int SLOTS = 200;

        private final IntFunction<Counter> make;
        private final AtomicReferenceArray<Counter> known = new AtomicReferenceArray<>(SLOTS);
        private final Map<Integer, Counter> other = new ConcurrentHashMap<>();

        ByStatus(IntFunction<Counter> make) {
            this.make = make;
        }

        Counter counter(int status) {
            int slot = status >= 0 && status < 100 ? status
                    : status >= 10_000 && status < 10_100 ? status - 10_000 + 100 : -1;
            if (slot < 0) {
                return other.computeIfAbsent(status, make::apply);
            }
            Counter counter = known.get(slot);
            if (counter == null) {
                // a race registers the same meter twice, and the registry answers the one it has both times
                counter = make.apply(status);
                known.set(slot, counter);
            }
            return counter;
        }
    }

    /** The operation itself, or {@link #UNKNOWN_KEY} for numbers no RFC names, so clients cannot grow the label set. */
    static int labelKey(int op) {
        String name = nfs_opnum4.name(op);
        return name.isEmpty() || !Character.isLetter(name.charAt(0)) ? UNKNOWN_KEY : op;
    }

    /** The RFC name of an operation ({@code READ}, {@code SEQUENCE}), or {@code UNKNOWN}. */
    static String opName(int op) {
        return labelKey(op) == UNKNOWN_KEY ? UNKNOWN_OP : nfs_opnum4.name(op);
    }
}
