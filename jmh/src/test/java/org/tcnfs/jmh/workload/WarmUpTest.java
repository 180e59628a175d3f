package org.tcnfs.jmh.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.vector.Mode;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.CompoundHook;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.rpc.NfsServer;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;

/** The driver's untimed warm-up, against the protocol server over an in-memory file system. */
class WarmUpTest {
    private static final int MIB = 1024 * 1024;
    private NfsServer server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void warmUpSendsEveryMeasuredCallShapeReportsNothingAndLeavesNothingBehind() throws IOException {
        InMemoryFileSystem fs = new InMemoryFileSystem();
        AtomicLong writes = new AtomicLong();
        AtomicLong oneFileCompounds = new AtomicLong();
        Set<String> ops = ConcurrentHashMap.newKeySet();
        NfsLimits noGrace = new NfsLimits(4096, MIB, MIB, MIB, MIB, 64, Duration.ofSeconds(90), Duration.ZERO);
        server = NfsServer.builder().fileSystems((credential, client) -> fs).limits(noGrace).bind("127.0.0.1", 0)
                .clock(Clock.systemUTC()).hook(new CompoundHook() {
                    @Override
                    public void beforeCompound(CompoundContext context, COMPOUND4args args) {
                        int opens = 0;
                        for (nfs_argop4 op : args.argarray) {
                            ops.add(nfs_opnum4.name(op.argop));
                            if (op.args instanceof WRITE4args) {
                                writes.incrementAndGet();
                            }
                            if (op.argop == nfs_opnum4.OP_OPEN) {
                                opens++;
                            }
                        }
                        if (opens == 1) {
                            oneFileCompounds.incrementAndGet();
                        }
                    }
                }).build();
        server.start();
        NfsTarget target = new NfsTarget("mem", "127.0.0.1", server.port(), "/", Mode.PLAIN, new Target.Identity(0, 0));
        List<Result> results = new ArrayList<>();
        Suite suite = new Suite(new Runner(Runner.Progress.NONE), List.of(target), new Workloads().settings(),
                results::add, "wl-warm");
        suite.createBase();

        suite.warmUp(40, 2);

        // per round: 40 flat files, then the tree's 40 files untarred and copied
        assertThat(writes.get()).isEqualTo(2 * 3 * 40);
        // every fourth flat file alone in its compound, as the degree workload's k=1 rows send them
        assertThat(oneFileCompounds.get()).isGreaterThanOrEqualTo(2 * 10);
        assertThat(ops).contains("LOOKUP", "GETATTR", "READ", "READDIR", "READLINK", "CREATE", "REMOVE");
        assertThat(results).isEmpty();
        try (FsSession session = target.open()) {
            assertThat(session.listRecursive("wl-warm/mem")).isEmpty();
        }
        suite.removeBase();
    }
}
