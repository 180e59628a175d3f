package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_CREATE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_LINK;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPEN;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_REMOVE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_RENAME;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_SETATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_WRITE;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.AuthSys;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.it.RandomCompounds.Compound;
import org.tcnfs.it.RandomCompounds.FailureKind;
import org.tcnfs.it.RandomCompounds.Injected;
import org.tcnfs.it.RandomCompounds.Kind;
import org.tcnfs.it.RandomCompounds.Model;
import org.tcnfs.it.RandomCompounds.Node;
import org.tcnfs.it.RandomCompounds.OpType;
import org.tcnfs.it.RandomCompounds.Target;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.nfs_argop4;

/**
 * Crash recovery (issue 4, "How it is shown to work"; DESIGN.md "The transaction protocol", step 7 and
 * "Recovery at startup"): the real server, as a separate process, is halted inside a transactional compound
 * (a crash point, {@code -Dtcnfs.crash-point}, exit status 137) or killed from outside ({@code kill -9}) while
 * transactions stream in; it is started again on the same export and state directory, and the export must
 * then hold exactly the state from before the compound (crash before the commit point) or exactly the
 * state after it (crash after the commit point; and always when the client saw NFS4_OK). Handles taken
 * before the crash still resolve, and no recovery record ({@code --check}, GET /status) and no backup
 * directory remains.
 *
 * <p>The expected after-state of a compound is what the same compound does as a plain compound on an
 * identical copy of the tree ("B", made from the same seed) in the same export; the transaction runs on
 * "A". Every trial gets fresh trees, so trials do not depend on each other.
 *
 * <p>One crash per server start: the next trial's crash point is armed on the start that recovers the
 * previous trial, which is verified on that start before the next trial runs. Seeded: {@code
 * -Dtcnfs.it.seed=N} repeats a run; every failure message carries the trial's seed. Violations are
 * collected and reported together at the end of each test, with the trial counts (printed to stdout).
 * Subclasses choose the file system.
 */
@Tag("crash")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CrashRecoveryContract {
    private static final long SEED = Long.getLong("tcnfs.it.seed", System.nanoTime());
    /** Random crash-point trials per class (one server start each). */
    private static final int RANDOM_CRASH_TRIALS = Integer.getInteger("tcnfs.it.crash.random", 8);
    /**
     * Rounds of {@link #STREAMS} streams of transactions per class, each ended by a crash point armed at random
     * or by an external kill -9 at a random moment.
     */
    private static final int KILL_ROUNDS = Integer.getInteger("tcnfs.it.crash.kills", 10);
    private static final int STREAMS = Integer.getInteger("tcnfs.it.crash.streams", 10);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);
    private static final String POINT = "-Dtcnfs.crash-point=";
    /** The first difference seen right after a reply that went away later (for the report). */
    private static final java.util.concurrent.atomic.AtomicReference<String> LATE_DIFF =
            new java.util.concurrent.atomic.AtomicReference<>();
    private static final Pattern PENDING = Pattern.compile("\"pending_recovery_records\":(\\d+)");
    private static final Pattern SUMMARY = Pattern.compile("recovery: (\\d+) interrupted transaction");
    private static final Pattern RECOVERED = Pattern.compile(
            "recovery: txn (\\d+) \\(export [^,]*, tag \"([^\"]*)\", (\\d+) ops\\) undone: (\\d+) steps \\((\\d+) had "
                    + "nothing to do\\) in (\\d+) ms");

    private ServerProcess server;
    private List<String> fastJvm = List.of();
    private String armed;
    private NfsConnection connection;
    private Nfs41Session session;
    private NfsOps nfs;
    private String testName;
    private Path testDir;
    private int startsAtBegin;
    /** Counts server replacements; trees of an earlier generation are gone. */
    private int generation;
    private int trees;
    private final ExecutorService sender = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "crash-it-sender");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** Violations of this test (partial states, lost commits, leftovers, dead handles), reported at its end. */
    private final List<String> violations = new ArrayList<>();
    /** Trials of the whole class, by kind, printed at the end. */
    private final Counts classCounts = new Counts();

    /** Trial counts. */
    static final class Counts {
        int pointTrials;
        int randomPointTrials;
        int killTrials;
        int notReached;
        int commitsSeen;
        int recoveryCrashes;
        int starts;
        int checks;
        int partial;
        int lost;
        int leaks;
        int otherViolations;
        /** Committed states that matched only after the background deletion of backups (link counts). */
        int lateConvergence;
        String firstLate;

        int randomized() {
            return randomPointTrials + killTrials;
        }
    }

    /** Where the server's export and state directories go. */
    abstract Path workDirectory() throws IOException;

    // ---- server lifecycle -----------------------------------------------------------------------------------

    @BeforeAll
    void startServer() throws IOException {
        // C1 only and the serial collector: the many short-lived server JVMs start faster (ServerProcess adds its
        // class-data archive of the server's classes)
        fastJvm = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
        server = ServerProcess.startIn(workDirectory(), fastJvm);
        armed = null;
        System.out.println(getClass().getSimpleName() + ": seed " + SEED + " (-Dtcnfs.it.seed=" + SEED + ")");
    }

    private static List<String> concat(List<String> a, String b) {
        List<String> out = new ArrayList<>(a);
        out.add(b);
        return List.copyOf(out);
    }

    @AfterAll
    void stopServer() throws IOException {
        disconnect();
        sender.shutdownNow();
        Counts c = classCounts;
        System.out.printf("%s TOTAL: %d crash-point trials (systematic), %d random crash-point trials, %d stream "
                        + "trials, kill -9 or armed crash point (randomized: %d), %d crash points not reached, %d "
                        + "committed compounds checked, %d "
                        + "crashes during recovery, %d server starts, %d --check runs; violations: %d partial states, "
                        + "%d lost commits, %d leaked records/backups, %d other%n", getClass().getSimpleName(),
                c.pointTrials, c.randomPointTrials, c.killTrials, c.randomized(), c.notReached, c.commitsSeen,
                c.recoveryCrashes, c.starts, c.checks, c.partial, c.lost, c.leaks, c.otherViolations);
        if (server != null) {
            if (!server.isAlive()) {
                server.relaunch();
            }
            server.close();
        }
    }

    @BeforeEach
    void begin(TestInfo test) throws IOException {
        testName = test.getTestMethod().orElseThrow().getName();
        violations.clear();
        trees = 0;
        startsAtBegin = classCounts.starts;
        ensureServer(null);
        testDir = server.exportDir().resolve(testName);
        Files.createDirectories(testDir);
    }

    @AfterEach
    void end() throws IOException {
        disconnect();
    }

    /** Makes the server serve with {@code point} armed (null: none), starting it when needed. */
    private void ensureServer(String point) throws IOException {
        if (server.isAlive() && java.util.Objects.equals(point, armed) && session != null) {
            return;
        }
        disconnect();
        if (server.isAlive() && !java.util.Objects.equals(point, armed)) {
            server.stop();
        }
        if (!server.isAlive()) {
            server.setJvmArgs((point == null ? fastJvm : concat(fastJvm, POINT + point)).toArray(String[]::new));
            try {
                server.relaunch();
            } catch (IllegalStateException e) {
                replaceServer(point, e);
            }
            classCounts.starts++;
            armed = point;
        }
        connect();
    }

    /**
     * The server does not start on its directories any more (recovery failed): a violation; the rest of the
     * test goes on with a fresh server on fresh directories (the old ones stay for post-mortems).
     */
    private void replaceServer(String point, IllegalStateException why) throws IOException {
        String out = server.outputOfLastStart();
        int at = out.indexOf("could not start");
        violations.add("the server no longer starts on its export and state after a crash (" + server + "): "
                + (at >= 0 ? out.substring(at, Math.min(out.length(), at + 700)) : why.getMessage()));
        classCounts.otherViolations++;
        server = ServerProcess.startIn(workDirectory(), point == null ? fastJvm : concat(fastJvm, POINT + point));
        generation++;
        if (testName != null) {
            testDir = server.exportDir().resolve(testName);
            Files.createDirectories(testDir);
        }
    }

    private void connect() throws IOException {
        connection = server.connect(AuthSys.ROOT, CALL_TIMEOUT);
        session = Nfs41Session.create(connection, "crash-it");
        nfs = new NfsOps(session);
    }

    private void disconnect() {
        if (connection != null) {
            try {
                if (server.isAlive()) {
                    session.close();
                }
                connection.close();
            } catch (IOException | RuntimeException e) {
                // the server died under it: nothing to close on its side
            }
        }
        connection = null;
        session = null;
        nfs = null;
    }

    // ---- trees and trials -----------------------------------------------------------------------------------

    /** Two identical random trees: the transaction runs on A, the same compound as a plain one on B. */
    private final class Twin {
        final Path pathA;
        final Path pathB;
        final Model model;
        final int madeIn = generation;
        byte[] rootA;
        byte[] rootB;

        Twin(long treeSeed) throws IOException {
            String name = "t" + (trees++);
            pathA = testDir.resolve(name + "-a");
            pathB = testDir.resolve(name + "-b");
            Files.createDirectory(pathA);
            Files.createDirectory(pathB);
            Model m = RandomCompounds.makeTree(pathA, treeSeed);
            RandomCompounds.makeTree(pathB, treeSeed);
            // two empty directories, so that REMOVE of a directory and RENAME onto one always have a victim
            for (int i = 0; i < 2; i++) {
                String dir = m.freshName("e");
                Files.createDirectory(pathA.resolve(dir));
                Files.createDirectory(pathB.resolve(dir));
                m.addNew(dir, Kind.DIR);
            }
            model = m;
            lookupRoots();
        }

        void lookupRoots() throws IOException {
            byte[] dir = nfs.lookup(nfs.rootFh(), testName);
            rootA = nfs.lookup(dir, pathA.getFileName().toString());
            rootB = nfs.lookup(dir, pathB.getFileName().toString());
        }

        Target a() {
            return new Target(rootA, session.clientId(), nfs.openOwner());
        }

        Target b() {
            return new Target(rootB, session.clientId(), nfs.openOwner());
        }
    }

    /** How a trial's transactional compound ended, seen from the client and the process. */
    private record Outcome(CompoundResult reply, int exitStatus, String error) {
        boolean crashed() {
            return exitStatus >= 0;
        }
    }

    /**
     * A trial whose compound was sent; it is verified once the server serves again.
     *
     * @param expectAfter whether the after-state is the only right outcome; null: before or after both right
     *     (a kill at an unknown moment), false: only the before-state
     * @param mayBeLight whether the compound may take the light path (docs/durability.md, "The light path"): its
     *     one change is a REMOVE, LINK, SETATTR, OPEN or WRITE (within one page); if it left no record, a crash before its commit point may
     *     leave it done (the after-state), and it never reaches after-record-durable
     */
    private record Pending(String what, String point, Twin twin, ExportSnapshot before, ExportSnapshot after,
            HeldHandles all, HeldHandles survivors, Outcome outcome, Boolean expectAfter, NfsStatus expectedStatus,
            boolean mayBeLight) {
    }

    /** Operations whose lone change may be light ({@code LightPath}); whether it is, the server decides. */
    private static final Set<Integer> MAY_BE_LIGHT = Set.of(OP_REMOVE, OP_LINK, OP_SETATTR, OP_OPEN, OP_WRITE);

    /** Whether {@code ops} has exactly one mutating operation and it is one that may take the light path. */
    private static boolean mayBeLight(CompoundBuilder ops) {
        nfs_argop4[] a = ops.build().argarray;
        List<Integer> mutating = new ArrayList<>();
        for (nfs_argop4 op : a) {
            if (MUTATING.contains(op.argop)) {
                mutating.add(op.argop);
            }
        }
        return mutating.size() == 1 && MAY_BE_LIGHT.contains(mutating.get(0));
    }

    /** A generated compound on a twin: the compound, and the failure injected (or null). */
    private record Built(Twin twin, Compound compound, Injected injected) {
    }

    private interface Maker {
        Built make(RandomCompounds gen, Twin twin);
    }

    /** Sends {@code ops} as a transaction and waits until a reply comes or the server process has ended. */
    private Outcome sendAndAwait(CompoundBuilder ops) throws IOException {
        Nfs41Session s = session;
        Future<CompoundResult> call = sender.submit(() -> s.executeTransaction(ops));
        long deadline = System.nanoTime() + EXIT_TIMEOUT.toNanos() + CALL_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                int status = server.awaitExit(EXIT_TIMEOUT);
                connection.close();
                CompoundResult reply = null;
                String error = null;
                try {
                    reply = call.get(3, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    error = String.valueOf(e.getCause());
                } catch (TimeoutException e) {
                    call.cancel(true);
                    error = "no reply within 3 s after the server ended";
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
                disconnect();
                return new Outcome(reply, status, error);
            }
            if (call.isDone()) {
                try {
                    return new Outcome(call.get(), -1, null);
                } catch (ExecutionException e) {
                    // the call failed while the process still ran: it must be on its way out
                    if (server.isAlive()) {
                        TxnLeftovers.sleep(20);
                        if (!server.isAlive() || waitDead(Duration.ofSeconds(10))) {
                            continue;
                        }
                        return new Outcome(null, -1, "the call failed but the server runs on: " + e.getCause());
                    }
                    continue;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
            TxnLeftovers.sleep(5);
        }
        throw new IllegalStateException("neither a reply nor an exit within " + EXIT_TIMEOUT + "\n" + server.output());
    }

    private boolean waitDead(Duration d) {
        long deadline = System.nanoTime() + d.toNanos();
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                return true;
            }
            TxnLeftovers.sleep(20);
        }
        return false;
    }

    /** Paths of {@code before} whose object (inode of the model) still exists in {@code after}. */
    private static List<String> survivors(Model before, Model after) {
        Set<Long> alive = new HashSet<>();
        for (Node n : after.nodes().values()) {
            alive.add(n.inode());
        }
        List<String> out = new ArrayList<>();
        before.nodes().forEach((p, n) -> {
            if (alive.contains(n.inode())) {
                out.add(p);
            }
        });
        return out;
    }

    /** Whether a crash at {@code point} comes before the commit point. */
    private static boolean beforeCommitPoint(String point) {
        return !point.equals("after-commit");
    }

    /**
     * Runs one crash-point trial: fresh twin trees, the compound, the after-state from the plain run on B,
     * then the transaction on A with {@code point} armed. Returns what to verify after the restart.
     */
    private Pending crashTrial(String point, long seed, Maker maker, String label) throws IOException {
        ensureServer(point);
        RandomCompounds gen = new RandomCompounds(seed);
        Twin t = new Twin(seed);
        Built built = maker.make(gen, t);
        String what = label + " crashed at " + point + " (seed " + seed + ", " + (built.injected() != null
                ? built.injected().description() : built.compound().toString()) + ")";
        ExportSnapshot before = ExportSnapshot.of(t.pathA);
        ExportSnapshot after = before;
        Model afterModel = t.model;
        if (built.injected() == null) {
            CompoundResult plain = nfs.run(built.compound().render(t.b()));
            assertThat(plain.status()).as("plain run on the copy (a generator bug) of %s: %s", what, plain)
                    .isEqualTo(NfsStatus.OK);
            after = ExportSnapshot.of(t.pathB);
            afterModel = built.compound().after();
        }
        HeldHandles all = HeldHandles.take(nfs, t.rootA, t.model.nodes().keySet());
        HeldHandles survivors = HeldHandles.take(nfs, t.rootA, survivors(t.model, afterModel));
        CompoundBuilder ops = built.injected() != null ? built.injected().ops() : built.compound().render(t.a());
        Outcome outcome = sendAndAwait(ops);
        Boolean expectAfter = built.injected() == null && !beforeCommitPoint(point);
        return new Pending(what, point, t, before, after, all, survivors, outcome, expectAfter,
                built.injected() != null ? built.injected().expected() : NfsStatus.OK,
                built.injected() == null && mayBeLight(ops));
    }

    /** Restarts the server if it died (arming {@code nextPoint}) and checks {@code p}. */
    private void recoverAndVerify(Pending p, String nextPoint, Counts into, boolean runCheck) throws IOException {
        Outcome o = p.outcome();
        boolean noRecord = false;
        if (o.crashed()) {
            if (o.exitStatus() != 137) {
                violation(into, "other", p.what() + ": the server exited with " + o.exitStatus() + ", not 137");
            }
            if (o.reply() != null) {
                violation(into, "other", p.what() + ": a reply came although the server halted: " + o.reply());
            }
            if (runCheck) {
                ServerProcess.CheckResult check = server.check();
                into.checks++;
                if (p.point().equals("after-commit") || p.mayBeLight() ? check.status() != 3 && check.status() != 0
                        : check.status() != 3) {
                    // after-commit leaves no record but may leave the backup directory (an orphan): 3 or 0
                    violation(into, "other", p.what() + ": --check before recovery exited " + check.status()
                            + " (expected 3: a pending record or orphan backup):\n" + check.output());
                }
            }
            ensureServer(nextPoint);
            String log = server.outputOfLastStart();
            Matcher summary = SUMMARY.matcher(log);
            if (!summary.find()) {
                violation(into, "other", p.what() + ": no recovery summary line in the server log");
            } else {
                noRecord = Integer.parseInt(summary.group(1)) == 0;
            }
        } else {
            if (o.reply() == null) {
                violation(into, "other", p.what() + ": " + o.error());
                return;
            }
            into.notReached++;
            ensureServer(nextPoint);
        }
        if (p.twin().madeIn != generation) {
            return;
        }
        p.twin().lookupRoots();
        ExportSnapshot actual = ExportSnapshot.of(p.twin().pathA);
        boolean isBefore = actual.equals(p.before());
        boolean isAfter = actual.equals(p.after());
        boolean ok;
        String expected;
        if (o.reply() != null && o.reply().status() != p.expectedStatus()) {
            violation(into, "other", p.what() + ": the server answered " + o.reply().status() + " instead of "
                    + p.expectedStatus() + " (no crash involved): " + o.reply());
        }
        if (o.reply() != null && o.reply().isOk()) {
            into.commitsSeen++;
            ok = isAfter;
            expected = "the after-state (the reply was NFS4_OK)";
            if (!ok) {
                into.lost++;
            }
        } else if (o.reply() != null) {
            ok = isBefore;
            expected = "the before-state (the reply was " + o.reply().status() + ")";
            if (!ok) {
                into.partial++;
            }
        } else {
            if (Boolean.TRUE.equals(p.expectAfter())) {
                ok = isAfter;
                expected = "the after-state (crash after the commit point)";
            } else if (Boolean.FALSE.equals(p.expectAfter()) && p.mayBeLight() && noRecord) {
                ok = isBefore || isAfter;
                expected = "the before- or the after-state (a light-path compound, which writes no record: crashed "
                        + "before its commit point, it may be done)";
            } else if (Boolean.FALSE.equals(p.expectAfter())) {
                ok = isBefore;
                expected = "the before-state (crash before the commit point)";
            } else {
                ok = isBefore || isAfter;
                expected = "the before- or the after-state";
            }
            if (!ok) {
                into.partial++;
            }
        }
        if (!ok) {
            violations.add(p.what() + ": expected " + expected + "; diff from before:\n" + p.before().diff(actual)
                    + "diff from after:\n" + p.after().diff(actual));
            return;
        }
        try {
            (isBefore ? p.all() : p.survivors()).assertStillWork(nfs, p.what() + " and the restart");
        } catch (AssertionError e) {
            violation(into, "other", e.getMessage());
        }
        int pending = pendingRecords();
        if (pending != 0) {
            violation(into, "leak", p.what() + ": GET /status says pending_recovery_records " + pending);
        }
        List<String> backups = TxnLeftovers.backupsLeft(server, o.crashed() ? 0 : 10_000);
        if (!backups.isEmpty()) {
            violation(into, "leak", p.what() + ": backup directories left after the restart: " + backups);
        }
    }

    private void violation(Counts into, String kind, String message) {
        switch (kind) {
            case "leak" -> into.leaks++;
            default -> into.otherViolations++;
        }
        violations.add(message);
    }

    private int pendingRecords() throws IOException {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.metricsPort() + "/status")).timeout(Duration.ofSeconds(10))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            Matcher m = PENDING.matcher(r.body());
            if (!m.find()) {
                throw new AssertionError("GET /status has no pending_recovery_records: " + r.body());
            }
            return Integer.parseInt(m.group(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    /** Stops the server cleanly; --check must say 0 (nothing pending, no orphan); restarts it unarmed. */
    private void finalCheck(Counts into) throws IOException {
        disconnect();
        server.stop();
        ServerProcess.CheckResult check = server.check();
        into.checks++;
        if (check.status() != 0) {
            violation(into, "leak", testName + ": --check after the last trial exited " + check.status() + ":\n"
                    + check.output());
        }
        List<String> records = TxnLeftovers.recordsLeft(server);
        if (!records.isEmpty()) {
            violation(into, "leak", testName + ": recovery records left in LMDB: " + records);
        }
        armed = "(stopped)";
        ensureServer(null);
    }

    private void report(Counts c) {
        c.starts = classCounts.starts - startsAtBegin;
        System.out.printf("%s.%s: %d crash-point trials, %d random crash-point trials, %d stream trials, %d crash "
                        + "points not reached, %d commits checked, %d crashes in recovery, %d server starts, "
                        + "%d --check; "
                        + "%d partial states, %d lost commits, %d leaks, %d other violations (%d commits matched only "
                        + "after the backup cleaner ran)%n",
                getClass().getSimpleName(), testName, c.pointTrials, c.randomPointTrials, c.killTrials, c.notReached,
                c.commitsSeen, c.recoveryCrashes, c.starts, c.checks, c.partial, c.lost, c.leaks, c.otherViolations,
                c.lateConvergence);
        classCounts.pointTrials += c.pointTrials;
        classCounts.randomPointTrials += c.randomPointTrials;
        classCounts.killTrials += c.killTrials;
        classCounts.notReached += c.notReached;
        classCounts.commitsSeen += c.commitsSeen;
        classCounts.recoveryCrashes += c.recoveryCrashes;
        classCounts.checks += c.checks;
        classCounts.partial += c.partial;
        classCounts.lost += c.lost;
        classCounts.leaks += c.leaks;
        classCounts.otherViolations += c.otherViolations;
        classCounts.lateConvergence += c.lateConvergence;
        if (c.firstLate != null) {
            System.out.println(testName + ": first late match: " + c.firstLate + "; first such difference:\n"
                    + LATE_DIFF.get());
        }
        assertThat(violations).as("seed %d, %s: violations", SEED, testName).isEmpty();
    }

    // ---- op positions --------------------------------------------------------------------------------------

    private static final Set<Integer> MUTATING = Set.of(OP_OPEN, OP_WRITE, OP_SETATTR, OP_CREATE, OP_LINK, OP_REMOVE,
            OP_RENAME);

    /** Positions (SEQUENCE is 0) of the mutating operations of {@code ops}. */
    private static List<Integer> mutatingPositions(CompoundBuilder ops) {
        nfs_argop4[] a = ops.build().argarray;
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < a.length; i++) {
            if (MUTATING.contains(a[i].argop)) {
                out.add(i + 1);
            }
        }
        return out;
    }

    /** The position (SEQUENCE is 0) of the last operation of the first step of {@code c}. */
    private static int endOfFirstStep(Compound c, Target t) {
        CompoundBuilder b = new CompoundBuilder();
        c.steps().get(0).render(b, t);
        return b.size();
    }

    // ---- tests ---------------------------------------------------------------------------------------------

    /** The crash points tried for every op type; positions are filled in per compound. */
    private static final List<String> MATRIX = List.of("after-record-durable", "before-op-first-mutation",
            "after-op-end-of-first-step", "before-commit", "after-commit", "mid-undo-1");

    /** Whether to run every (op type, crash point) pair here, not only this file system's share. */
    private static final boolean FULL_MATRIX = Boolean.getBoolean("tcnfs.it.crash.full");
    /** Op types whose undo restores data from backups (clones on XFS, copies elsewhere). */
    private static final Set<OpType> DATA = Set.of(OpType.OPEN_TRUNCATE, OpType.WRITE, OpType.WRITE_PAST_EOF,
            OpType.SETATTR_SIZE);
    /** Crash points at which data must be restored from the backups. */
    private static final Set<String> RESTORING = Set.of("after-op-end-of-first-step", "before-commit", "mid-undo-1");

    /**
     * This file system's share of the (op type, crash point) matrix: 0 or 1; the two subclasses take
     * complementary shares so that every pair runs on one of them, and the pairs that restore data from
     * backups (where reflink and copy differ) run on both.
     */
    abstract int matrixShare();

    private boolean inMatrixShare(OpType type, String point) {
        if (FULL_MATRIX || (DATA.contains(type) && RESTORING.contains(point))) {
            return true;
        }
        return (type.ordinal() + MATRIX.indexOf(point)) % 2 == matrixShare();
    }

    @Test
    void everyCrashPointOfEveryMutatingOpTypeRecoversToTheBeforeOrAfterState() throws IOException {
        Counts c = new Counts();
        Pending pending = null;
        int k = 0;
        long start = System.nanoTime();
        int skipped = 0;
        for (OpType type : OpType.values()) {
            for (String point : MATRIX) {
                long seed = SEED + 7919L * (k++);
                if (!inMatrixShare(type, point)) {
                    skipped++;
                    continue;
                }
                // the compound is only known after the tree exists: pick positions from a probe of the same seed
                Built probe = probe(seed, type, point.equals("mid-undo-1"));
                String concrete = concretePoint(point, probe);
                if (pending != null) {
                    recoverAndVerify(pending, concrete, c, c.pointTrials <= 2 || c.pointTrials % 25 == 0);
                }
                pending = crashTrial(concrete, seed, (gen, t) -> makeOfType(gen, t, type, point.equals("mid-undo-1")),
                        type + " (" + point + ")");
                if (!pending.outcome().crashed() && pending.outcome().reply() != null
                        && !(pending.mayBeLight() && concrete.equals("after-record-durable")
                                && pending.outcome().reply().isOk())) {
                    // a light-path compound writes no record, so it commits without reaching after-record-durable
                    violation(c, "other", pending.what() + ": the crash point was not reached; reply "
                            + pending.outcome().reply());
                }
                c.pointTrials++;
            }
        }
        recoverAndVerify(pending, null, c, false);
        finalCheck(c);
        System.out.printf("%s: %d op types x %d crash points: %d pairs here, %d left to the other file system "
                + "(-Dtcnfs.it.crash.full=true runs all), in %d ms%n", testName, OpType.values().length,
                MATRIX.size(), c.pointTrials, skipped, (System.nanoTime() - start) / 1_000_000);
        report(c);
    }

    /** The compound a trial of {@code type} with {@code seed} will send (made on a scratch tree). */
    private Built probe(long seed, OpType type, boolean fails) throws IOException {
        return onScratchTree(seed, (gen, m) -> {
            Compound compound = gen.ofType(m, type, 2);
            Target dummy = new Target(new byte[16], 1, new byte[] {1});
            Injected inj = fails ? gen.withFailure(compound, compound.steps().size(), FailureKind.MISSING_NAME, dummy)
                    : null;
            return new Built(null, compound, inj);
        });
    }

    /**
     * What {@code make} builds, with a generator of {@code seed}, from the model of a scratch tree made as a
     * trial's twin is (the tree of {@code seed} and two empty directories); the scratch tree is deleted afterwards.
     */
    private Built onScratchTree(long seed, BiFunction<RandomCompounds, Model, Built> make) throws IOException {
        Path scratch = Files.createTempDirectory(testDir.getParent().getParent(), "probe-");
        try {
            Model m = RandomCompounds.makeTree(scratch, seed);
            for (int i = 0; i < 2; i++) {
                m.addNew(m.freshName("e"), Kind.DIR);
            }
            return make.apply(new RandomCompounds(seed), m);
        } finally {
            ServerProcess.deleteTree(scratch);
        }
    }

    private static String concretePoint(String point, Built b) {
        Target dummy = new Target(new byte[16], 1, new byte[] {1});
        CompoundBuilder ops = b.injected() != null ? b.injected().ops() : b.compound().render(dummy);
        return switch (point) {
            case "before-op-first-mutation" -> "before-op-" + mutatingPositions(ops).get(0);
            case "after-op-end-of-first-step" -> "after-op-" + endOfFirstStep(b.compound(), dummy);
            default -> point;
        };
    }

    private static Built makeOfType(RandomCompounds gen, Twin t, OpType type, boolean fails) {
        Compound compound = gen.ofType(t.model, type, 2);
        if (compound.steps().isEmpty()) {
            throw new IllegalStateException("no " + type + " step possible on " + t.model);
        }
        Injected inj = fails ? gen.withFailure(compound, compound.steps().size(), FailureKind.MISSING_NAME, t.a())
                : null;
        return new Built(t, compound, inj);
    }

    @Test
    void randomMixedCompoundsCrashedAtRandomPointsRecoverToTheBeforeOrAfterState() throws IOException {
        Counts c = new Counts();
        Pending pending = null;
        long start = System.nanoTime();
        for (int k = 0; k < RANDOM_CRASH_TRIALS; k++) {
            long seed = SEED ^ (0x5eed0000L + k * 104729L);
            Random pick = new Random(seed * 31 + 7);
            boolean fails = pick.nextInt(4) == 0;
            Built probe = probeMixed(seed, fails);
            String point = randomPoint(pick, probe);
            if (pending != null) {
                recoverAndVerify(pending, point, c, false);
            }
            pending = crashTrial(point, seed, (gen, t) -> makeMixed(gen, t, fails), "random mixed compound");
            c.randomPointTrials++;
        }
        if (pending != null) {
            recoverAndVerify(pending, null, c, false);
        }
        finalCheck(c);
        System.out.printf("%s: %d trials in %d ms%n", testName, RANDOM_CRASH_TRIALS,
                (System.nanoTime() - start) / 1_000_000);
        report(c);
    }

    private Built probeMixed(long seed, boolean fails) throws IOException {
        return onScratchTree(seed, (gen, m) -> makeMixed(gen, new Probe(m), fails));
    }

    /** Stand-in for a twin when probing: only the model matters. */
    private static final class Probe {
        final Model model;

        Probe(Model model) {
            this.model = model;
        }
    }

    private static Built makeMixed(RandomCompounds gen, Twin t, boolean fails) {
        return mixed(gen, t.model, t.a(), fails, t);
    }

    private static Built makeMixed(RandomCompounds gen, Probe p, boolean fails) {
        return mixed(gen, p.model, new Target(new byte[16], 1, new byte[] {1}), fails, null);
    }

    private static Built mixed(RandomCompounds gen, Model model, Target target, boolean fails, Twin t) {
        Compound compound = gen.mixed(model, 1, 50);
        Injected inj = null;
        if (fails) {
            int position = gen.random().nextInt(compound.steps().size() + 1);
            FailureKind[] kinds = FailureKind.values();
            inj = gen.withFailure(compound, position, kinds[gen.random().nextInt(kinds.length)], target);
        }
        return new Built(t, compound, inj);
    }

    /** A crash point the compound can reach, at random. */
    private static String randomPoint(Random r, Built b) {
        Target dummy = new Target(new byte[16], 1, new byte[] {1});
        if (b.injected() != null) {
            int lastRun = b.injected().failingOp() + 1;
            return switch (r.nextInt(4)) {
                case 0 -> "mid-undo-" + (1 + r.nextInt(Math.max(1, mutatingPositions(b.injected().ops()).size())));
                case 1 -> "mid-undo-1";
                case 2 -> "before-op-" + (1 + r.nextInt(lastRun));
                default -> "after-op-" + (1 + r.nextInt(lastRun));
            };
        }
        int size = b.compound().render(dummy).size();
        return switch (r.nextInt(6)) {
            case 0 -> "after-record-durable";
            case 1 -> "before-op-" + (1 + r.nextInt(size));
            case 2 -> "after-op-" + (1 + r.nextInt(size));
            case 3 -> "before-commit";
            case 4 -> "after-commit";
            default -> "after-op-" + size;
        };
    }

    @Test
    void killMinus9OrACrashPointWhileTransactionsStreamLosesNoCommitAndLeavesNoPartialState() throws Exception {
        Counts c = new Counts();
        long start = System.nanoTime();
        int inFlight = 0;
        int halted = 0;
        String point = streamPoint(new Random(SEED ^ 0x4b111000L));
        for (int round = 0; round < KILL_ROUNDS; round++) {
            long roundSeed = SEED ^ (0x4b111000L + round * 15485863L);
            // armed: the first stream to reach the point halts the server; else kill -9 at a random moment
            ensureServer(point);
            Random r = new Random(roundSeed);
            List<Stream> streams = new ArrayList<>();
            for (int s = 0; s < STREAMS; s++) {
                streams.add(new Stream(roundSeed * 1000 + s, new Twin(roundSeed * 1000 + s)));
            }
            disconnect();
            CountDownLatch ready = new CountDownLatch(STREAMS);
            AtomicBoolean killed = new AtomicBoolean();
            for (Stream s : streams) {
                sender.submit(() -> {
                    s.run(ready, killed);
                    return null;
                });
            }
            long readyBy = System.nanoTime() + 60_000_000_000L;
            while (!ready.await(20, TimeUnit.MILLISECONDS) && server.isAlive()) {
                if (System.nanoTime() > readyBy) {
                    throw new IllegalStateException("streams did not start");
                }
            }
            // every stream has sent its first transaction (or the crash point came first)
            boolean selfHalted = waitDead(Duration.ofMillis(r.nextInt(2500)));
            killed.set(true);
            if (selfHalted) {
                halted++;
                int status = server.awaitExit(EXIT_TIMEOUT);
                if (status != 137) {
                    violation(c, "other", "round " + round + ": the server armed with " + point + " exited " + status);
                }
            } else {
                server.kill();
            }
            for (Stream s : streams) {
                // what each stream had sent and seen at the crash; its thread ends on its own (the call times out)
                s.freeze();
                s.closeConnection();
            }
            point = round + 1 < KILL_ROUNDS ? streamPoint(r) : null;
            ensureServer(point);
            for (Stream s : streams) {
                StreamState st = s.state;
                inFlight += st != null && st.inFlight() ? 1 : 0;
                s.verify(c);
                c.killTrials++;
            }
        }
        finalCheck(c);
        System.out.printf("%s: %d rounds x %d streams = %d trials (%d with a compound in flight; %d rounds ended by an "
                + "armed crash point, %d by kill -9), %d commits, in %d ms%n", testName, KILL_ROUNDS, STREAMS,
                c.killTrials, inFlight, halted, KILL_ROUNDS - halted, c.commitsSeen,
                (System.nanoTime() - start) / 1_000_000);
        report(c);
    }

    /** A crash point for a round of streams, or null (two rounds in five): kill -9 only. */
    private static String streamPoint(Random r) {
        return switch (r.nextInt(10)) {
            case 0, 1, 2, 3 -> null;
            case 4 -> "after-record-durable";
            case 5 -> "before-op-" + (1 + r.nextInt(40));
            case 6 -> "after-op-" + (1 + r.nextInt(40));
            case 7 -> "before-commit";
            case 8 -> "after-commit";
            default -> "mid-undo-" + (1 + r.nextInt(3));
        };
    }

    /** Whether the server is (about to be) gone: a failed call then is the crash, not a fault. */
    private boolean serverGone() {
        return waitDead(Duration.ofSeconds(3));
    }

    /**
     * What a stream had sent and seen: the compound in flight (or the last one), the tree's state before it
     * and after it (null while unknown: the kill came before the plain run on the copy finished), the handles
     * to check for either outcome, and the commits the client saw.
     */
    private record StreamState(String current, ExportSnapshot before, ExportSnapshot after, HeldHandles all,
            HeldHandles survivors, boolean inFlight, int commits) {
    }

    /** One client sending random transactional compounds to its own tree until the server is killed. */
    private final class Stream {
        final long seed;
        final Twin twin;
        final RandomCompounds gen;
        volatile NfsConnection conn;
        private StreamState state;
        private boolean frozen;
        private boolean broken;
        private final List<String> problems = new ArrayList<>();
        private int lateConvergence;
        private String firstLate;

        Stream(long seed, Twin twin) {
            this.seed = seed;
            this.twin = twin;
            this.gen = new RandomCompounds(seed);
        }

        private synchronized void publish(StreamState s) {
            if (!frozen) {
                state = s;
            }
        }

        /** A fault seen while the server ran: reported; the stream stops, and its tree is not judged after the kill. */
        private synchronized void problem(String p) {
            if (!frozen) {
                problems.add(p);
                broken = true;
            }
        }

        /** Stops taking updates from the stream's thread: what it published so far is what is verified. */
        synchronized void freeze() {
            frozen = true;
        }

        void closeConnection() {
            NfsConnection c = conn;
            if (c != null) {
                try {
                    c.close();
                } catch (IOException | RuntimeException e) {
                    // already broken
                }
            }
        }

        void run(CountDownLatch ready, AtomicBoolean killed) {
            Nfs41Session s;
            NfsOps ops;
            ExportSnapshot before;
            try {
                conn = server.connect(AuthSys.ROOT, CALL_TIMEOUT);
                s = Nfs41Session.create(conn, "crash-stream");
                ops = new NfsOps(s);
                before = ExportSnapshot.of(twin.pathA);
                publish(new StreamState("(none sent)", before, null, null, null, false, 0));
            } catch (IOException e) {
                if (!killed.get() && !serverGone()) {
                    problem("stream " + seed + " could not start: " + e);
                }
                ready.countDown();
                return;
            }
            boolean first = true;
            Model model = twin.model;
            int commits = 0;
            int n = 0;
            try {
                while (!killed.get()) {
                    boolean fails = gen.random().nextInt(4) == 0;
                    Target a = new Target(twin.rootA, s.clientId(), ops.openOwner());
                    Target b = new Target(twin.rootB, s.clientId(), ops.openOwner());
                    Compound compound = gen.mixed(model, 1, 50);
                    Injected inj = fails ? gen.withFailure(compound, gen.random().nextInt(compound.steps().size() + 1),
                            FailureKind.values()[gen.random().nextInt(FailureKind.values().length)], a) : null;
                    String current = "compound " + (n++) + " of stream seed " + seed + ": "
                            + (inj != null ? inj.description() : compound.toString());
                    HeldHandles all = HeldHandles.take(ops, twin.rootA, model.nodes().keySet());
                    publish(new StreamState(current, before, null, all, null, false, commits));
                    ExportSnapshot after = before;
                    Model afterModel = model;
                    if (inj == null) {
                        CompoundResult plain = ops.run(compound.render(b));
                        if (!plain.isOk()) {
                            problem("plain run on the copy failed (generator bug) for " + current + ": " + plain
                                    + "\nthe server's last WARN and ERROR lines:\n" + server.warnings(20));
                            return;
                        }
                        after = ExportSnapshot.of(twin.pathB);
                        afterModel = compound.after();
                    }
                    HeldHandles survivors = HeldHandles.take(ops, twin.rootA, survivors(model, afterModel));
                    publish(new StreamState(current, before, after, all, survivors, true, commits));
                    CompoundBuilder txn = inj != null ? inj.ops() : compound.render(a);
                    if (first) {
                        first = false;
                        ready.countDown();
                    }
                    CompoundResult r = s.executeTransaction(txn);
                    ExportSnapshot want = inj == null ? after : before;
                    NfsStatus expected = inj == null ? NfsStatus.OK : inj.expected();
                    if (r.status() != expected) {
                        // a server fault (reported), not a crash; check that it rolled back, then stop this stream
                        String rolledBack = awaitState(twin.pathA, before, 2000) >= 0 ? "it rolled back completely"
                                : "and its rollback left a partial state:\n"
                                + before.diff(ExportSnapshot.of(twin.pathA));
                        problem(current + ": transactional run answered " + r.status() + " instead of " + expected
                                + " (no crash involved); " + rolledBack + "\n" + r
                                + "\nthe server's last WARN and ERROR lines:\n" + server.warnings(20));
                        return;
                    }
                    if (r.isOk()) {
                        commits++;
                        model = afterModel;
                        // committed: from now on only the after-state is right
                        publish(new StreamState(current, after, after, survivors, survivors, false, commits));
                    } else {
                        want = before;
                    }
                    // online check; the backups of a commit are deleted in the background, and until then a
                    // removed hard link still counts in the link count of its other names: allow 5 s for that
                    long waited = awaitState(twin.pathA, want, 5000);
                    if (waited < 0) {
                        problem(current + ": state after the reply differs:\n"
                                + want.diff(ExportSnapshot.of(twin.pathA)));
                        return;
                    }
                    if (waited > 0) {
                        if (lateConvergence++ == 0) {
                            firstLate = current + " matched its expected state " + waited + " ms after the reply";
                        }
                    }
                    before = want;
                    publish(new StreamState(current, before, null, survivors, null, false, commits));
                }
            } catch (IOException | RuntimeException e) {
                if (!killed.get() && !serverGone()) {
                    problem("stream " + seed + " failed while the server ran: " + e);
                }
            } finally {
                if (first) {
                    ready.countDown();
                }
            }
        }

        /** After the restart: the tree is the state before the compound in flight, or after it. */
        void verify(Counts into) throws IOException {
            List<String> found;
            StreamState st;
            boolean faulted;
            synchronized (this) {
                found = List.copyOf(problems);
                st = state;
                faulted = broken;
            }
            into.commitsSeen += st == null ? 0 : st.commits();
            into.lateConvergence += lateConvergence;
            if (firstLate != null && into.firstLate == null) {
                into.firstLate = firstLate;
            }
            if (!found.isEmpty()) {
                violations.addAll(found);
                into.otherViolations += found.size();
            }
            if (twin.madeIn != generation || st == null || faulted) {
                return;
            }
            twin.lookupRoots();
            ExportSnapshot actual = ExportSnapshot.of(twin.pathA);
            boolean isBefore = actual.equals(st.before());
            boolean isAfter = st.after() != null && actual.equals(st.after());
            String what = "kill -9 during " + st.current() + " (in flight: " + st.inFlight() + ", " + st.commits()
                    + " commits before)";
            if (!isBefore && !isAfter) {
                into.partial++;
                violations.add(what + ": neither the before- nor the after-state; diff from before:\n"
                        + st.before().diff(actual) + (st.after() == null ? "" : "diff from after:\n"
                        + st.after().diff(actual)));
                return;
            }
            HeldHandles handles = isBefore ? st.all() : st.survivors();
            if (handles != null) {
                try {
                    handles.assertStillWork(nfs, what);
                } catch (AssertionError e) {
                    violation(into, "other", e.getMessage());
                }
            }
            if (pendingRecords() != 0) {
                violation(into, "leak", what + ": pending_recovery_records is not 0");
            }
            List<String> backups = TxnLeftovers.backupsLeft(server, 0);
            if (!backups.isEmpty()) {
                violation(into, "leak", what + ": backups left: " + backups);
            }
        }
    }

    /** Waits until {@code dir} looks like {@code want}: 0 if at once, the ms waited, or -1 if not in time. */
    private static long awaitState(Path dir, ExportSnapshot want, long millis) throws IOException {
        long start = System.nanoTime();
        long deadline = start + millis * 1_000_000L;
        ExportSnapshot first = ExportSnapshot.of(dir);
        if (first.equals(want)) {
            return 0;
        }
        String firstDiff = want.diff(first);
        while (true) {
            TxnLeftovers.sleep(20);
            if (ExportSnapshot.of(dir).equals(want)) {
                LATE_DIFF.compareAndSet(null, firstDiff);
                return Math.max(1, (System.nanoTime() - start) / 1_000_000);
            }
            if (System.nanoTime() > deadline) {
                return -1;
            }
        }
    }

    @Test
    void aCrashDuringRecoveryAndAnotherRestartConvergeToTheBeforeState() throws IOException {
        Counts c = new Counts();
        // with renames (undo prepared op by op) and without (undo prepared up front, one record)
        List<OpType[]> mixes = List.of(
                new OpType[] {OpType.WRITE, OpType.CREATE_DIR, OpType.RENAME_FILE, OpType.REMOVE_FILE,
                    OpType.RENAME_DIR, OpType.SETATTR_SIZE, OpType.OPEN_CREATE, OpType.LINK},
                new OpType[] {OpType.WRITE, OpType.OPEN_TRUNCATE, OpType.SETATTR_MODE, OpType.CREATE_SYMLINK,
                    OpType.REMOVE_FILE, OpType.LINK, OpType.SETATTR_SIZE, OpType.OPEN_CREATE});
        int m = 0;
        for (OpType[] mix : mixes) {
            long seed = SEED ^ (0xdead0000L + m++);
            Pending p = crashTrial("before-commit", seed, (gen, t) -> {
                Model model = t.model.copy();
                List<RandomCompounds.Step> steps = new ArrayList<>();
                for (OpType type : mix) {
                    gen.step(type, model).ifPresent(s -> {
                        s.apply(model);
                        steps.add(s);
                    });
                }
                return new Built(t, RandomCompounds.of(seed, t.model, steps), null);
            }, "mixed compound for recovery crashes");
            c.pointTrials++;
            if (!p.outcome().crashed()) {
                violations.add(p.what() + ": did not crash: " + p.outcome());
                continue;
            }
            disconnect();
            for (String during : List.of("mid-recovery-2", "mid-recovery-1")) {
                server.setJvmArgs(concat(fastJvm, POINT + during).toArray(String[]::new));
                int status = server.relaunchExpectingExit(Duration.ofSeconds(60));
                classCounts.starts++;
                if (status != 137) {
                    violations.add(p.what() + ": a start armed with " + during + " gave " + status
                            + " instead of halting with 137\n" + server.outputOfLastStart());
                    if (status == -1) {
                        server.kill();
                    }
                } else {
                    c.recoveryCrashes++;
                }
                ServerProcess.CheckResult check = server.check();
                c.checks++;
                if (check.status() != 3 || !check.output().contains("1 pending recovery record")) {
                    violations.add(p.what() + ": --check after a crash during recovery (" + during + ") exited "
                            + check.status() + ", expected 3 with 1 pending record:\n" + check.output());
                }
            }
            armed = "(halted)";
            recoverAndVerify(new Pending(p.what() + " then crashes at mid-recovery-2 and mid-recovery-1",
                    p.point(), p.twin(), p.before(), p.after(), p.all(), p.survivors(),
                    new Outcome(null, 137, null), false, p.expectedStatus(), false), null, c, false);
            Matcher rec = RECOVERED.matcher(server.outputOfLastStart());
            if (!rec.find()) {
                violations.add(p.what() + ": the final start logged no recovered transaction");
            } else {
                System.out.printf("%s: final recovery undid %s steps (%s ops) in %s ms%n", testName, rec.group(4),
                        rec.group(3), rec.group(6));
            }
        }
        finalCheck(c);
        report(c);
    }

    @Test
    void recoveryOfATransactionOfAThousandOperationsIsTimed() throws IOException {
        Counts c = new Counts();
        ensureServer("before-commit");
        Path big = testDir.resolve("big");
        Files.createDirectory(big);
        Random r = new Random(SEED);
        int files = 500;
        for (int i = 0; i < files; i++) {
            byte[] data = new byte[4096 + r.nextInt(8192)];
            r.nextBytes(data);
            Files.write(big.resolve("w" + i), data);
        }
        ExportSnapshot before = ExportSnapshot.of(big);
        byte[] dir = nfs.lookup(nfs.lookup(nfs.rootFh(), testName), "big");
        HeldHandles handles = HeldHandles.take(nfs, dir, List.of("w0", "w17", "w250", "w499"));
        CompoundBuilder ops = new CompoundBuilder().tag("thousand");
        for (int i = 0; i < files; i++) {
            byte[] data = new byte[64 + r.nextInt(512)];
            r.nextBytes(data);
            ops.putfh(dir).lookup("w" + i).write(CompoundBuilder.anonymousStateid(), r.nextInt(4096), data);
        }
        for (int i = 0; i < 500; i++) {
            ops.putfh(dir).mkdir("c" + i, Attrs.builder().mode(0755).build());
        }
        int mutations = mutatingPositions(ops).size();
        assertThat(mutations).isEqualTo(1000);
        long sent = System.nanoTime();
        Outcome o = sendAndAwait(ops);
        long halted = System.nanoTime();
        assertThat(o.exitStatus()).as("exit status of the halt at before-commit: %s", o).isEqualTo(137);
        long relaunch = System.nanoTime();
        ensureServer(null);
        long served = System.nanoTime();
        String log = server.outputOfLastStart();
        Matcher m = RECOVERED.matcher(log);
        assertThat(m.find()).as("a recovery line in the log:\n%s", log).isTrue();
        System.out.printf("%s: a transaction of %s ops (%d mutating) ran to before-commit in "
                        + "%d ms; recovery of its record: %s steps undone (%s had nothing to do) in %s ms (server "
                        + "start including recovery: %d ms)%n", testName, m.group(3), mutations,
                (halted - sent) / 1_000_000, m.group(4), m.group(5), m.group(6), (served - relaunch) / 1_000_000);
        before.assertMatches(ExportSnapshot.of(big), "recovery of the 1,000-op transaction (seed " + SEED + ")");
        handles.assertStillWork(nfs, "recovery of the 1,000-op transaction");
        assertThat(pendingRecords()).as("pending records after recovery").isZero();
        assertThat(TxnLeftovers.backupsLeft(server, 0)).as("backups after recovery").isEmpty();
        c.pointTrials++;
        finalCheck(c);
        report(c);
    }
}
