package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_FILEID;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_TYPE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READDIR;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.OPEN4args;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.READDIR4resok;
import org.tcnfs.nfs4.xdr.entry4;

/**
 * Isolation of transactional compounds (issue 3, "How it is shown to work"; DESIGN.md "The transaction
 * protocol" steps 2-3 and 8): concurrent plain readers never see part of a transaction, and concurrent
 * transactions end in a serial outcome. Each test runs thousands of compounds in a fixed time budget
 * ({@code -Dtcnfs.it.isolation.seconds}, default 25 per test) and prints how many.
 */
class TransactionIsolationIT extends SharedServerTest {
    private static final long SEED = Long.getLong("tcnfs.it.seed", System.nanoTime());
    private static final long BUDGET_NANOS = Long.getLong("tcnfs.it.isolation.seconds", 25) * 1_000_000_000L;

    private ThreadClients testClients;
    private NfsOps nfs;
    private byte[] dir;

    @BeforeAll
    void printSeed() {
        System.out.println("TransactionIsolationIT: seed " + SEED);
    }

    @BeforeEach
    void openSession(TestInfo test) throws IOException {
        testClients = ThreadClients.open(server, "isolation-it");
        nfs = testClients.nfs();
        dir = nfs.mkdir(nfs.rootFh(), test.getTestMethod().orElseThrow().getName());
    }

    @AfterEach
    void closeSessions() throws Exception {
        testClients.close();
    }

    private static boolean timeLeft(long start) {
        return System.nanoTime() - start < BUDGET_NANOS;
    }

    /** Runs the tasks on threads of their own and waits for them (the budget plus a minute at most). */
    private static void runAll(List<java.util.concurrent.Callable<Void>> tasks) throws Exception {
        ThreadClients.runAll(tasks, BUDGET_NANOS);
    }

    /** The directory's entries (name to fileid) in one plain READDIR compound, which must reach eof. */
    private static Map<String, Long> list(NfsOps ops, byte[] directory) throws IOException {
        CompoundResult r = ops.runOk(new CompoundBuilder().putfh(directory)
                .readdir(0, new byte[8], 256 * 1024, 512 * 1024, FATTR4_TYPE, FATTR4_FILEID));
        READDIR4resok ok = r.body(OP_READDIR, READDIR4resok.class);
        if (!ok.reply.eof) {
            throw new IOException("one READDIR did not reach eof (" + ok.reply.entries.length + " entries)");
        }
        Map<String, Long> out = new TreeMap<>();
        for (entry4 e : ok.reply.entries) {
            out.put(new String(e.name, StandardCharsets.UTF_8), Attrs.decode(e.attrs).fileid());
        }
        return out;
    }

    // ---- (a) a set of names created or removed by one compound ---------------------------------------------

    @Test
    void plainReadersSeeAllOrNoneOfASetOfNamesCreatedOrRemovedInOneTransaction() throws Exception {
        Random random = new Random(SEED);
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger listings = new AtomicInteger();
        AtomicInteger sets = new AtomicInteger();
        AtomicInteger names = new AtomicInteger();
        NfsOps writer = testClients.newClient("set-writer");
        List<NfsOps> readers = List.of(testClients.newClient("set-reader-1"), testClients.newClient("set-reader-2"));
        long start = System.nanoTime();
        List<java.util.concurrent.Callable<Void>> tasks = new ArrayList<>();
        tasks.add(() -> {
            try {
                for (int round = 0; round < 100_000 && timeLeft(start) && violations.isEmpty(); round++) {
                    int k = 3 + random.nextInt(98);
                    CompoundBuilder create = new CompoundBuilder().tag("create-set-" + round);
                    CompoundBuilder remove = new CompoundBuilder().tag("remove-set-" + round).putfh(dir);
                    for (int j = 0; j < k; j++) {
                        String name = "g" + round + "-" + j + "-of-" + k;
                        create.putfh(dir);
                        switch (random.nextInt(3)) {
                            case 0 -> create.mkdir(name);
                            case 1 -> create.symlink(name, "target-" + j);
                            default -> create.openCreate(writer.session().clientId(), writer.openOwner(), name,
                                    OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().mode(0644).build())
                                    .close(CompoundBuilder.currentStateid());
                        }
                        remove.remove(name);
                    }
                    CompoundResult c = writer.session().executeTransaction(create);
                    if (!c.isOk()) {
                        violations.add("creating set " + round + " of " + k + ": " + c);
                        break;
                    }
                    CompoundResult r = writer.session().executeTransaction(remove);
                    if (!r.isOk()) {
                        violations.add("removing set " + round + " of " + k + ": " + r);
                        break;
                    }
                    sets.incrementAndGet();
                    names.addAndGet(k);
                }
            } finally {
                done.set(true);
            }
            return null;
        });
        for (NfsOps reader : readers) {
            tasks.add(() -> {
                while (!done.get()) {
                    Map<String, Long> seen = list(reader, dir);
                    listings.incrementAndGet();
                    Map<String, Integer> perSet = new HashMap<>();
                    Map<String, Integer> expected = new HashMap<>();
                    for (String name : seen.keySet()) {
                        String[] parts = name.split("-");
                        perSet.merge(parts[0], 1, Integer::sum);
                        expected.put(parts[0], Integer.parseInt(parts[3]));
                    }
                    perSet.forEach((set, count) -> {
                        if (!count.equals(expected.get(set))) {
                            violations.add("a listing showed " + count + " of the " + expected.get(set)
                                    + " names of set " + set);
                        }
                    });
                }
                return null;
            });
        }
        runAll(tasks);
        System.out.printf("sets: %d sets (%d names) created and removed, %d listings, in %d ms%n", sets.get(),
                names.get(), listings.get(), (System.nanoTime() - start) / 1_000_000);

        assertThat(violations).as("seed %d: partial sets seen or failed compounds", SEED).isEmpty();
        assertThat(sets.get()).as("sets created and removed").isGreaterThan(10);
        assertThat(listings.get()).as("listings read").isGreaterThan(100);
    }

    // ---- (b) several writers rewriting one file ------------------------------------------------------------

    /** Writer {@code w}'s content of round {@code i}: a header naming both, then seeded bytes; 8-64 KiB. */
    private static byte[] content(int w, int i) {
        int length = 8 * 1024 + (int) ((w * 7919L + i * 104_729L) % (56 * 1024));
        byte[] data = new byte[length];
        new Random(w * 1_000_003L + i).nextBytes(data);
        byte[] header = ("w" + w + "i" + i + ":").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(header, 0, data, 0, header.length);
        return data;
    }

    /** Whose content {@code data} is, or null when it is no writer's whole content. */
    private static String whose(byte[] data) {
        int colon = -1;
        for (int i = 0; i < Math.min(24, data.length); i++) {
            if (data[i] == ':') {
                colon = i;
                break;
            }
        }
        if (colon < 0 || data[0] != 'w') {
            return null;
        }
        String header = new String(data, 0, colon, StandardCharsets.US_ASCII);
        int iAt = header.indexOf('i');
        try {
            int w = Integer.parseInt(header.substring(1, iAt));
            int i = Integer.parseInt(header.substring(iAt + 1));
            return Arrays.equals(data, content(w, i)) ? header : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static byte[] bytes(READ4resok read) {
        ByteBuffer b = read.data.duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    @Test
    void everyReadOfAFileRewrittenByConcurrentTransactionsIsOneWritersWholeContent() throws Exception {
        byte[] file = nfs.createFile(dir, "shared", content(0, 0));
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger writes = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        int writers = 3;
        AtomicInteger writersLeft = new AtomicInteger(writers);
        long start = System.nanoTime();
        List<java.util.concurrent.Callable<Void>> tasks = new ArrayList<>();
        for (int w = 1; w <= writers; w++) {
            int me = w;
            NfsOps ops = testClients.newClient("file-writer-" + w);
            tasks.add(() -> {
                try {
                    for (int i = 1; timeLeft(start) && violations.isEmpty(); i++) {
                        byte[] data = content(me, i);
                        CompoundBuilder c = new CompoundBuilder().putfh(file).setattr(Attrs.builder().size(0).build());
                        for (int off = 0; off < data.length; off += 16 * 1024) {
                            c.write(CompoundBuilder.anonymousStateid(), off,
                                    Arrays.copyOfRange(data, off, Math.min(data.length, off + 16 * 1024)));
                        }
                        CompoundResult r = ops.session().executeTransaction(c);
                        if (!r.isOk()) {
                            violations.add("writer " + me + " round " + i + ": " + r);
                        }
                        writes.incrementAndGet();
                    }
                } finally {
                    if (writersLeft.decrementAndGet() == 0) {
                        done.set(true);
                    }
                }
                return null;
            });
        }
        for (int r = 1; r <= 2; r++) {
            NfsOps ops = testClients.newClient("file-reader-" + r);
            tasks.add(() -> {
                while (!done.get()) {
                    CompoundResult res = ops.runOk(new CompoundBuilder().putfh(file)
                            .read(CompoundBuilder.anonymousStateid(), 0, 128 * 1024));
                    READ4resok read = res.body(OP_READ, READ4resok.class);
                    byte[] data = bytes(read);
                    reads.incrementAndGet();
                    if (!read.eof) {
                        violations.add("a READ of 128 KiB did not reach eof at " + data.length + " bytes");
                    } else if (whose(data) == null) {
                        violations.add("a READ returned " + data.length + " bytes that are no writer's whole content"
                                + " (starting " + new String(data, 0, Math.min(12, data.length),
                                StandardCharsets.ISO_8859_1) + ")");
                    }
                }
                return null;
            });
        }
        runAll(tasks);
        System.out.printf("one file: %d transactional rewrites, %d reads, in %d ms%n", writes.get(), reads.get(),
                (System.nanoTime() - start) / 1_000_000);

        assertThat(violations).as("torn reads or failed writes").isEmpty();
        assertThat(whose(nfs.read(file))).as("the final content").isNotNull();
        assertThat(writes.get()).isGreaterThan(30);
        assertThat(reads.get()).isGreaterThan(100);
    }

    // ---- (c) concurrent renames in one directory -----------------------------------------------------------

    private record Rename(String from, String to) {
    }

    /** The directory after {@code order} of renames from {@code start}, with each rename's status. */
    private static Map<String, Long> serially(Map<String, Long> start, List<Rename> order, List<NfsStatus> statuses) {
        Map<String, Long> state = new TreeMap<>(start);
        for (Rename r : order) {
            if (!state.containsKey(r.from())) {
                statuses.add(NfsStatus.NOENT);
            } else {
                state.put(r.to(), state.remove(r.from()));
                statuses.add(NfsStatus.OK);
            }
        }
        return state;
    }

    private static List<List<Integer>> permutations(int n) {
        List<List<Integer>> out = new ArrayList<>();
        permute(new ArrayList<>(), n, out);
        return out;
    }

    private static void permute(List<Integer> prefix, int n, List<List<Integer>> out) {
        if (prefix.size() == n) {
            out.add(List.copyOf(prefix));
            return;
        }
        for (int i = 0; i < n; i++) {
            if (!prefix.contains(i)) {
                prefix.add(i);
                permute(prefix, n, out);
                prefix.remove(prefix.size() - 1);
            }
        }
    }

    @Test
    void concurrentRenamesInOneDirectoryEndInOneOfTheSerialOutcomes() throws Exception {
        Random random = new Random(SEED ^ 0xc);
        int threads = 3;
        List<String> pool = List.of("a", "b", "c", "d", "e");
        List<NfsOps> clients = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            clients.add(testClients.newClient("renamer-" + t));
        }
        List<List<Integer>> orders = permutations(threads);
        CyclicBarrier barrier = new CyclicBarrier(threads);
        ExecutorService exec = Executors.newFixedThreadPool(threads);
        List<String> violations = new ArrayList<>();
        long start = System.nanoTime();
        int iterations = 0;
        int created = 0;
        try {
            while (timeLeft(start) && violations.isEmpty()) {
                Map<String, Long> before = list(nfs, dir);
                for (String name : pool) {
                    if (before.size() < 3 && !before.containsKey(name)) {
                        nfs.createFile(dir, name, ("file " + created++).getBytes(StandardCharsets.UTF_8));
                        before = list(nfs, dir);
                    }
                }
                List<Rename> renames = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    String from = pool.get(random.nextInt(pool.size()));
                    String to;
                    do {
                        to = pool.get(random.nextInt(pool.size()));
                    } while (to.equals(from));
                    renames.add(new Rename(from, to));
                }
                List<Future<NfsStatus>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    Rename r = renames.get(t);
                    NfsOps ops = clients.get(t);
                    results.add(exec.submit(() -> {
                        barrier.await(30, TimeUnit.SECONDS);
                        return ops.session().executeTransaction(new CompoundBuilder().putfh(dir).savefh()
                                .rename(r.from(), r.to())).status();
                    }));
                }
                List<NfsStatus> actualStatuses = new ArrayList<>();
                for (Future<NfsStatus> f : results) {
                    actualStatuses.add(f.get(90, TimeUnit.SECONDS));
                }
                Map<String, Long> after = list(nfs, dir);
                boolean serial = false;
                for (List<Integer> order : orders) {
                    List<Rename> ordered = order.stream().map(renames::get).toList();
                    List<NfsStatus> st = new ArrayList<>();
                    Map<String, Long> outcome = serially(before, ordered, st);
                    List<NfsStatus> byThread = new ArrayList<>(List.of(NfsStatus.OK, NfsStatus.OK, NfsStatus.OK));
                    for (int k = 0; k < threads; k++) {
                        byThread.set(order.get(k), st.get(k));
                    }
                    if (outcome.equals(after) && byThread.equals(actualStatuses)) {
                        serial = true;
                        break;
                    }
                }
                if (!serial) {
                    violations.add("iteration " + iterations + ": renames " + renames + " with statuses "
                            + actualStatuses + " took " + before + " to " + after + ", which no serial order gives");
                }
                iterations++;
            }
        } finally {
            exec.shutdownNow();
        }
        System.out.printf("renames: %d rounds of %d concurrent renames, in %d ms%n", iterations, threads,
                (System.nanoTime() - start) / 1_000_000);

        assertThat(violations).as("seed %d: outcomes no serial order explains", SEED).isEmpty();
        assertThat(iterations).isGreaterThan(20);
    }

    // ---- (d) a directory rename racing writes beneath it ---------------------------------------------------

    private static final int VERSION_SIZE = 4096;

    private static byte[] version(int v) {
        byte[] data = new byte[VERSION_SIZE];
        new Random(v).nextBytes(data);
        byte[] header = ("v" + v + ":").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(header, 0, data, 0, header.length);
        return data;
    }

    private static int versionOf(byte[] data) {
        String head = new String(data, 0, Math.min(16, data.length), StandardCharsets.ISO_8859_1);
        int colon = head.indexOf(':');
        if (!head.startsWith("v") || colon < 0) {
            return -1;
        }
        try {
            int v = Integer.parseInt(head.substring(1, colon));
            return Arrays.equals(data, version(v)) ? v : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Test
    void aDirectoryRenameRacingTransactionalWritesBeneathItIsSerial() throws Exception {
        byte[] p = nfs.mkdir(dir, "p");
        byte[] f = nfs.createFile(p, "f", version(0));
        byte[] q = nfs.mkdir(p, "q");
        byte[] g = nfs.createFile(q, "g", version(0));
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger renames = new AtomicInteger();
        AtomicInteger pathWrites = new AtomicInteger();
        AtomicInteger pathMisses = new AtomicInteger();
        AtomicInteger handleWrites = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger activeWriters = new AtomicInteger(3);
        NfsOps renamer = testClients.newClient("dir-renamer");
        NfsOps pathWriter = testClients.newClient("path-writer");
        NfsOps handleWriter = testClients.newClient("handle-writer");
        NfsOps reader = testClients.newClient("pair-reader");
        long start = System.nanoTime();
        List<java.util.concurrent.Callable<Void>> tasks = new ArrayList<>();
        tasks.add(() -> {
            try {
                for (int i = 0; timeLeft(start) && violations.isEmpty(); i++) {
                    String from = i % 2 == 0 ? "p" : "p2";
                    String to = i % 2 == 0 ? "p2" : "p";
                    CompoundResult r = renamer.session().executeTransaction(
                            new CompoundBuilder().putfh(dir).savefh().rename(from, to));
                    if (!r.isOk()) {
                        violations.add("rename " + from + " -> " + to + ": " + r);
                    }
                    renames.incrementAndGet();
                }
                if (renames.get() % 2 == 1) {
                    renamer.runOk(new CompoundBuilder().putfh(dir).savefh().rename("p2", "p"));
                }
            } finally {
                activeWriters.decrementAndGet();
            }
            return null;
        });
        tasks.add(() -> {
            try {
                for (int v = 2; timeLeft(start) && violations.isEmpty(); v += 2) {
                    byte[] data = version(v);
                    CompoundBuilder c = new CompoundBuilder()
                            .putfh(dir).lookup("p").lookup("f").write(CompoundBuilder.anonymousStateid(), 0, data)
                            .putfh(dir).lookup("p").lookup("q").lookup("g")
                            .write(CompoundBuilder.anonymousStateid(), 0, data);
                    CompoundResult r = pathWriter.session().executeTransaction(c);
                    if (r.isOk()) {
                        pathWrites.incrementAndGet();
                    } else if (r.status() == NfsStatus.NOENT && r.statuses().size() == 3) {
                        pathMisses.incrementAndGet(); // p was renamed away before the compound: serial
                    } else if (r.status() == NfsStatus.DELAY) {
                        violations.add("a write by path beneath p answered NFS4ERR_DELAY (lock timeout or re-plan "
                                + "limit) while p was being renamed: " + r);
                    } else {
                        violations.add("a write by path beneath p failed mid-way (the rename interleaved): " + r);
                    }
                }
            } finally {
                activeWriters.decrementAndGet();
            }
            return null;
        });
        tasks.add(() -> {
            try {
                for (int v = 1; timeLeft(start) && violations.isEmpty(); v += 2) {
                    byte[] data = version(v);
                    CompoundResult r = handleWriter.session().executeTransaction(new CompoundBuilder()
                            .putfh(f).write(CompoundBuilder.anonymousStateid(), 0, data)
                            .putfh(g).write(CompoundBuilder.anonymousStateid(), 0, data));
                    if (!r.isOk()) {
                        violations.add("a write by stored handles beneath p failed: " + r);
                    }
                    handleWrites.incrementAndGet();
                }
            } finally {
                activeWriters.decrementAndGet();
            }
            return null;
        });
        tasks.add(() -> {
            while (activeWriters.get() > 0) {
                CompoundResult r = reader.runOk(new CompoundBuilder()
                        .putfh(f).read(CompoundBuilder.anonymousStateid(), 0, 2 * VERSION_SIZE)
                        .putfh(g).read(CompoundBuilder.anonymousStateid(), 0, 2 * VERSION_SIZE));
                List<READ4resok> both = r.bodies(OP_READ, READ4resok.class);
                int vf = versionOf(bytes(both.get(0)));
                int vg = versionOf(bytes(both.get(1)));
                reads.incrementAndGet();
                if (vf < 0 || vg < 0 || vf != vg) {
                    violations.add("one plain read of p/f and p/q/g saw versions " + vf + " and " + vg
                            + " (-1: torn)");
                }
            }
            return null;
        });
        runAll(tasks);
        System.out.printf("dir rename: %d renames, %d writes by path (%d found p renamed away), %d by handle, "
                + "%d pair reads, in %d ms%n", renames.get(), pathWrites.get(), pathMisses.get(), handleWrites.get(),
                reads.get(), (System.nanoTime() - start) / 1_000_000);

        assertThat(violations).as("half states or non-serial outcomes").isEmpty();
        assertThat(list(nfs, dir)).containsOnlyKeys("p");
        int vf = versionOf(nfs.read(nfs.lookup(nfs.lookup(dir, "p"), "f")));
        assertThat(vf).as("p/f holds a whole version").isNotNegative();
        assertThat(versionOf(nfs.read(g))).as("p/q/g holds the same version as p/f").isEqualTo(vf);
        assertThat(nfs.getattr(q, FATTR4_TYPE).type()).as("q's handle still works").isPositive();
        assertThat(renames.get()).isGreaterThan(50);
        assertThat(pathWrites.get() + pathMisses.get()).isGreaterThan(50);
    }
}
