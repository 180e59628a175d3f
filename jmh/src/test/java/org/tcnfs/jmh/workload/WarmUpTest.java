package org.tcnfs.jmh.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
    void warmUpWritesEveryFileOfEveryRoundReportsNothingAndLeavesNothingBehind() throws IOException {
        InMemoryFileSystem fs = new InMemoryFileSystem();
        AtomicLong writes = new AtomicLong();
        NfsLimits noGrace = new NfsLimits(4096, MIB, MIB, MIB, MIB, 64, Duration.ofSeconds(90), Duration.ZERO);
        server = NfsServer.builder().fileSystems((credential, client) -> fs).limits(noGrace).bind("127.0.0.1", 0)
                .clock(Clock.systemUTC()).hook(new CompoundHook() {
                    @Override
                    public void beforeCompound(CompoundContext context, COMPOUND4args args) {
                        for (nfs_argop4 op : args.argarray) {
                            if (op.args instanceof WRITE4args) {
                                writes.incrementAndGet();
                            }
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

        assertThat(writes.get()).isEqualTo(2 * 40);
        assertThat(results).isEmpty();
        try (FsSession session = target.open()) {
            assertThat(session.listRecursive("wl-warm/mem")).isEmpty();
        }
        suite.removeBase();
    }
}
