package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SIZE;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TYPE;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;

/**
 * No deadlock is possible (issue 3, "Lock manager"; DESIGN.md step 3: all keys at once, in one global
 * order): many threads send random transactional (and some plain) compounds over overlapping paths, reached
 * by name and by stored handles, in random order, including directory renames that move whole subtrees;
 * every compound must finish, and none may answer NFS4ERR_DELAY (a lock wait that ran into the timeout) or
 * NFS4ERR_SERVERFAULT. Failures for ordinary reasons (a name another thread removed) are expected.
 * Seeded ({@code -Dtcnfs.it.seed}); budget {@code -Dtcnfs.it.deadlock.seconds} (default 35).
 */
class TransactionNoDeadlockIT extends SharedServerTest {
    private static final long SEED = Long.getLong("tcnfs.it.seed", System.nanoTime());
    private static final long BUDGET_SECONDS = Long.getLong("tcnfs.it.deadlock.seconds", 35);
    private static final int THREADS = 8;
    /** Compounds that must commit (more than this many); the run goes on past its budget until they have. */
    private static final long MIN_COMMITTED = 100;
    private static final List<String> DIRS = List.of("", "d0", "d1", "d2", "d0/e0", "d1/e1");
    private static final List<String> NAMES = List.of("n0", "n1", "n2", "n3", "n4");

    @BeforeAll
    void printSeed() {
        System.out.println("TransactionNoDeadlockIT: seed " + SEED);
    }

    /** What one thread saw, by status. */
    private static final class Tally {
        final Map<NfsStatus, LongAdder> byStatus = new ConcurrentHashMap<>();
        final LongAdder compounds = new LongAdder();
        final LongAdder ops = new LongAdder();

        void add(CompoundResult r, int size) {
            byStatus.computeIfAbsent(r.status(), s -> new LongAdder()).increment();
            compounds.increment();
            ops.add(size);
        }

        long committed() {
            LongAdder ok = byStatus.get(NfsStatus.OK);
            return ok == null ? 0 : ok.sum();
        }
    }

    /** Appends PUTFH of the test root (or of a stored directory handle) and LOOKUPs to {@code dir}. */
    private static void go(CompoundBuilder c, Random r, byte[] root, Map<String, byte[]> stored, String dir) {
        if (stored.containsKey(dir) && r.nextInt(3) == 0) {
            c.putfh(stored.get(dir)); // by a stored handle: the object may have moved since
        } else {
            c.putfh(root).lookupPath(dir);
        }
    }

    private static String pick(Random r, List<String> list) {
        return list.get(r.nextInt(list.size()));
    }

    /** A random compound of 1-12 steps over the shared tree. */
    private static CompoundBuilder randomCompound(Random r, byte[] root, Map<String, byte[]> stored, long clientId,
            byte[] owner) {
        CompoundBuilder c = new CompoundBuilder().tag("deadlock");
        int steps = 1 + r.nextInt(12);
        for (int i = 0; i < steps; i++) {
            String dir = pick(r, DIRS);
            String name = pick(r, NAMES);
            switch (r.nextInt(10)) {
                case 0, 1 -> {
                    go(c, r, root, stored, dir);
                    c.openCreate(clientId, owner, name, OPEN4args.OPEN4_SHARE_ACCESS_BOTH,
                                    Attrs.builder().mode(0644).build())
                            .write(CompoundBuilder.currentStateid(), r.nextInt(8192), new byte[1 + r.nextInt(4096)])
                            .close(CompoundBuilder.currentStateid());
                }
                case 2 -> {
                    go(c, r, root, stored, dir);
                    c.lookup(name).write(CompoundBuilder.anonymousStateid(), r.nextInt(8192), new byte[100]);
                }
                case 3 -> {
                    go(c, r, root, stored, dir);
                    c.mkdir(name);
                }
                case 4 -> {
                    go(c, r, root, stored, dir);
                    c.remove(name);
                }
                case 5 -> {
                    go(c, r, root, stored, dir);
                    c.savefh();
                    go(c, r, root, stored, pick(r, DIRS));
                    c.rename(name, pick(r, NAMES));
                }
                case 6 -> {
                    // move a subdirectory between the top directories (and back, by another compound)
                    String from = r.nextBoolean() ? "d0" : "d1";
                    String to = from.equals("d0") ? "d1" : "d0";
                    String sub = r.nextBoolean() ? "e0" : "e1";
                    go(c, r, root, stored, from);
                    c.savefh();
                    go(c, r, root, stored, to);
                    c.rename(sub, sub);
                }
                case 7 -> {
                    go(c, r, root, stored, dir);
                    c.lookup(name).savefh();
                    go(c, r, root, stored, pick(r, DIRS));
                    c.link(pick(r, NAMES));
                }
                case 8 -> {
                    go(c, r, root, stored, dir);
                    c.setattr(Attrs.builder().mode(0700 | r.nextInt(0100)).build()).getattr(FATTR4_TYPE);
                }
                default -> {
                    go(c, r, root, stored, dir);
                    c.readdir(8192, FATTR4_TYPE, FATTR4_SIZE);
                }
            }
        }
        return c;
    }

    @Test
    void randomConcurrentTransactionsOverOverlappingPathsAllFinishWithoutDelay() throws Exception {
        byte[] root;
        Map<String, byte[]> stored = new ConcurrentHashMap<>();
        try (NfsConnection c = server.connect(); Nfs41Session s = Nfs41Session.create(c, "deadlock-setup")) {
            NfsOps nfs = new NfsOps(s);
            root = nfs.mkdir(nfs.rootFh(), "shared");
            for (String d : DIRS) {
                if (!d.isEmpty()) {
                    byte[] parent = d.contains("/") ? stored.get(d.substring(0, d.indexOf('/'))) : root;
                    stored.put(d, nfs.mkdir(parent, RandomCompounds.name(d)));
                }
            }
            for (String d : DIRS) {
                byte[] dir = d.isEmpty() ? root : stored.get(d);
                for (String n : NAMES.subList(0, 3)) {
                    nfs.createFile(dir, n, new byte[1000]);
                }
            }
        }
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        Tally tally = new Tally();
        AtomicInteger finished = new AtomicInteger();
        long start = System.nanoTime();
        long budget = TimeUnit.SECONDS.toNanos(BUDGET_SECONDS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            long threadSeed = SEED + t;
            futures.add(pool.submit(() -> {
                Random r = new Random(threadSeed);
                try (NfsConnection c = server.connect(); Nfs41Session s = Nfs41Session.create(c, "deadlock-" + threadSeed)) {
                    NfsOps nfs = new NfsOps(s);
                    // past the budget only while fewer than MIN_COMMITTED committed (a slow, loaded machine),
                    // and never past three budgets
                    while (failures.size() < 20 && (System.nanoTime() - start < budget
                            || tally.committed() <= MIN_COMMITTED && System.nanoTime() - start < 3 * budget)) {
                        CompoundBuilder compound = randomCompound(r, root, stored, s.clientId(), nfs.openOwner());
                        boolean txn = r.nextInt(5) != 0;
                        long t0 = System.nanoTime();
                        CompoundResult res = txn ? s.executeTransaction(compound) : s.execute(compound);
                        long ms = (System.nanoTime() - t0) / 1_000_000;
                        tally.add(res, compound.size());
                        if (res.status() == NfsStatus.DELAY || res.status() == NfsStatus.SERVERFAULT) {
                            String text = res.toString();
                            failures.add((txn ? "transactional" : "plain") + " compound (thread seed " + threadSeed
                                    + ") answered " + res.status() + " after " + ms + " ms: "
                                    + (text.length() > 700 ? text.substring(0, 700) + "..." : text));
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    failures.add("thread seed " + threadSeed + " failed: " + e);
                }
                finished.incrementAndGet();
                return null;
            }));
        }
        pool.shutdown();
        boolean allDone = pool.awaitTermination(3 * BUDGET_SECONDS + 75, TimeUnit.SECONDS);
        for (Future<?> f : futures) {
            try {
                f.get(1, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                failures.add("a thread never finished (deadlock?)");
            }
        }
        pool.shutdownNow();
        Map<NfsStatus, Long> statuses = new EnumMap<>(NfsStatus.class);
        tally.byStatus.forEach((k, v) -> statuses.put(k, v.sum()));
        System.out.printf("no deadlock: %d threads, %d compounds (%d ops) in %d ms; statuses %s%n", THREADS,
                tally.compounds.sum(), tally.ops.sum(), (System.nanoTime() - start) / 1_000_000, statuses);

        assertThat(allDone).as("seed %d: every thread finished (%d of %d did)", SEED, finished.get(), THREADS)
                .isTrue();
        assertThat(failures).as("seed %d: compounds that hit the lock timeout or a server fault", SEED).isEmpty();
        assertThat(statuses.getOrDefault(NfsStatus.OK, 0L)).as("compounds that committed")
                .isGreaterThan(MIN_COMMITTED);
    }
}
