package org.tcnfs.jmh;

import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_PUTFH;

import java.net.InetAddress;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundEngine;
import org.tcnfs.nfs4.compound.CompoundHook;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.compound.NfsOperation;
import org.tcnfs.nfs4.compound.OperationExecutor;
import org.tcnfs.nfs4.compound.ServerContext;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * What the compound loop itself costs around its operations (issue 16, branch h-warm): an NFSv4.0 compound of the
 * shape an unmodified client sends (PUTFH, GETATTR, GETFH) through {@link CompoundEngine#process}, with operations
 * that do nothing and the two hooks a server has (metrics and transactions), here hooks that only count. What is
 * left is the engine's own work per compound and per operation: the results, the hook calls, the scope.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CompoundEngineBenchmark {
    private final InMemoryFileSystem fs = new InMemoryFileSystem();
    private final ServerContext server = new ServerContext((credential, address) -> fs,
            new StateHandler(NfsLimits.DEFAULTS, Clock.systemUTC()), NfsLimits.DEFAULTS, Clock.systemUTC());
    private final NfsOperation nothing = (context, op, result) -> { };
    private final Counting metrics = new Counting();
    private final Counting transactions = new Counting();
    private final CompoundEngine engine = new CompoundEngine(
            OperationExecutor.of(Map.of(OP_PUTFH, nothing, OP_GETATTR, nothing, OP_GETFH, nothing)),
            List.of(metrics, transactions), Set.of(0, 1));
    private final CompoundContext context = CompoundContext.builder().server(server).minorVersion(0).tag("")
            .credential(Credential.ROOT).clientAddress(InetAddress.getLoopbackAddress()).connection(new Object())
            .build();
    private final COMPOUND4args args = compound(OP_PUTFH, OP_GETATTR, OP_GETFH);

    /** A hook that counts its calls, as a stand-in for one that records meters. */
    private static final class Counting implements CompoundHook {
        long calls;

        @Override
        public void beforeCompound(CompoundContext context, COMPOUND4args args) {
            calls++;
        }

        @Override
        public void beforeOp(CompoundContext context, int index, nfs_argop4 op) {
            calls++;
        }

        @Override
        public void afterOp(CompoundContext context, int index, nfs_argop4 op, nfs_resop4 result) {
            calls++;
        }

        @Override
        public void afterCompound(CompoundContext context, COMPOUND4res res) {
            calls++;
        }
    }

    private static COMPOUND4args compound(int... opcodes) {
        COMPOUND4args args = new COMPOUND4args();
        args.tag = "";
        args.minorversion = 0;
        args.argarray = new nfs_argop4[opcodes.length];
        for (int i = 0; i < opcodes.length; i++) {
            args.argarray[i] = new nfs_argop4(opcodes[i], null);
        }
        return args;
    }

    /** One compound of three operations, through the loop and both hooks. */
    @Benchmark
    public COMPOUND4res putfhGetattrGetfh() {
        return engine.process(context, args);
    }
}
