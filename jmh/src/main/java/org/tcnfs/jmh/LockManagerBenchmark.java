package org.tcnfs.jmh;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.tcnfs.txn.lock.LockKey;
import org.tcnfs.txn.lock.LockManager;
import org.tcnfs.txn.lock.LockMode;
import org.tcnfs.txn.lock.LockRequest;
import org.tcnfs.txn.lock.LockSet;

/**
 * Taking and releasing all the keys of a compound at once: 1 to 1,000 write keys under one directory
 * (whose ancestors are read-locked), alone ({@link #uncontended}) and with four threads whose key sets
 * overlap in one shared file out of every ten ({@link #contended}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LockManagerBenchmark {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Param({"1", "10", "100", "1000"})
    public int keys;

    private LockManager locks;

    @Setup
    public void setUp() {
        locks = new LockManager();
    }

    /** Per-thread key sets: the thread's own files, with every tenth key shared by all threads. */
    @State(Scope.Thread)
    public static class Keys {
        List<LockRequest> requests;

        @Setup
        public void setUp(LockManagerBenchmark bench) {
            int me = ThreadLocalRandom.current().nextInt(1_000_000);
            requests = new ArrayList<>(bench.keys + 1);
            requests.add(new LockRequest(LockKey.ofPath("bench", "dir"), LockMode.READ));
            for (int i = 0; i < bench.keys; i++) {
                String name = i % 10 == 0 ? "shared-" + i : "t" + me + "-" + i;
                requests.add(new LockRequest(LockKey.ofPath("bench", "dir", name), LockMode.WRITE));
            }
        }
    }

    @Benchmark
    public int uncontended(Keys k) throws Exception {
        try (LockSet set = locks.acquire(k.requests, TIMEOUT)) {
            return set.locksHeld();
        }
    }

    @Benchmark
    @Threads(4)
    public int contended(Keys k) throws Exception {
        try (LockSet set = locks.acquire(k.requests, TIMEOUT)) {
            return set.locksHeld();
        }
    }
}
