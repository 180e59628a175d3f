package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs40Client;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.READ4resok;

/**
 * Every compound that touches file-system objects runs under the locks of what it touches, whatever comes
 * first (issue 13, item 1; DESIGN.md "The transaction protocol" step 3): plain compounds whose first
 * operation after SEQUENCE is not PUTFH (TEST_STATEID), and NFSv4.0 compounds that start with RENEW, see
 * neither half of a transaction nor data of a rolled-back one, and a plain WRITE past EOF acknowledged
 * NFS4_OK is never erased by a concurrent rollback. Each test runs for a fixed time
 * ({@code -Dtcnfs.it.locking.seconds}, default 5) against a writer whose two-file transactions fail half
 * the time (or, for the lost write, always). Subclasses choose the file system under the server.
 */
abstract class PlainCompoundLockingContract extends SharedServerTest {
    private static final long BUDGET_NANOS = Long.getLong("tcnfs.it.locking.seconds", 5) * 1_000_000_000L;
    private static final int RECORD = 16;

    private ItSession itSession;
    private NfsOps nfs;
    private byte[] dir;
    private final List<AutoCloseable> opened = new ArrayList<>();

    /** Where the server's export and state directories go. */
    @Override
    abstract java.nio.file.Path workDirectory() throws IOException;

    @BeforeEach
    void connect(TestInfo test) throws IOException {
        itSession = ItSession.open(server, "locking-it");
        nfs = itSession.nfs();
        dir = nfs.mkdir(nfs.rootFh(), test.getTestMethod().orElseThrow().getName());
    }

    @AfterEach
    void disconnect() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        opened.clear();
        itSession.close();
    }

    private NfsOps newClient(String name) throws IOException {
        ItSession s = ItSession.open(server, name);
        opened.add(s);
        return s.nfs();
    }

    private static byte[] value(char kind, int round) {
        return String.format("%c%015d", kind, round).getBytes(StandardCharsets.US_ASCII);
    }

    private static String text(READ4resok read) {
        ByteBuffer data = read.data.duplicate();
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /**
     * A writer that sets both files to one value per transaction; odd rounds fail at the end (LOOKUP of a
     * missing name: NFS4ERR_NOENT) and roll back. Committed values start with 'c', rolled-back ones with 'f'.
     */
    private Callable<Void> pairWriter(NfsOps writer, byte[] a, byte[] b, AtomicBoolean done,
            ConcurrentLinkedQueue<String> violations, AtomicInteger rounds) {
        return () -> {
            try {
                long start = System.nanoTime();
                for (int round = 1; System.nanoTime() - start < BUDGET_NANOS && violations.isEmpty(); round++) {
                    boolean fail = round % 2 == 1;
                    byte[] v = value(fail ? 'f' : 'c', round);
                    CompoundBuilder txn = new CompoundBuilder().tag("pair-" + round)
                            .putfh(a).write(CompoundBuilder.anonymousStateid(), 0, v)
                            .putfh(b).write(CompoundBuilder.anonymousStateid(), 0, v);
                    if (fail) {
                        txn.putfh(dir).lookup("no-such-name");
                    }
                    CompoundResult r = writer.session().executeTransaction(txn);
                    NfsStatus expected = fail ? NfsStatus.NOENT : NfsStatus.OK;
                    if (r.status() != expected) {
                        violations.add("transaction " + round + " answered " + r.status() + ", not " + expected
                                + ": " + r);
                    }
                    rounds.incrementAndGet();
                }
            } finally {
                done.set(true);
            }
            return null;
        };
    }

    /** Checks one reader's view of the pair: equal values, and committed ones. */
    private static void checkPair(CompoundResult r, String who, ConcurrentLinkedQueue<String> violations) {
        if (!r.isOk()) {
            violations.add(who + ": " + r);
            return;
        }
        List<READ4resok> reads = r.bodies(OP_READ, READ4resok.class);
        String first = text(reads.get(0));
        String second = text(reads.get(1));
        if (!first.equals(second)) {
            violations.add(who + " saw half a transaction: A=" + first + " B=" + second);
        } else if (!first.startsWith("c")) {
            violations.add(who + " saw data of a rolled-back transaction: " + first);
        }
    }

    private static void runAll(List<Callable<Void>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            List<Future<Void>> futures = new ArrayList<>();
            for (Callable<Void> t : tasks) {
                futures.add(pool.submit(t));
            }
            for (Future<Void> f : futures) {
                f.get(BUDGET_NANOS / 1_000_000_000L + 60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void readerStartingWithTestStateidSeesNoHalfAndNoRolledBackTransaction() throws Exception {
        byte[] a = nfs.createFile(dir, "a", value('c', 0));
        byte[] b = nfs.createFile(dir, "b", value('c', 0));
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger rounds = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        List<Callable<Void>> tasks = new ArrayList<>();
        tasks.add(pairWriter(newClient("pair-writer"), a, b, done, violations, rounds));
        for (int n = 0; n < 2; n++) {
            NfsOps reader = newClient("test-stateid-reader-" + n);
            tasks.add(() -> {
                while (!done.get()) {
                    CompoundResult r = reader.run(new CompoundBuilder().testStateid()
                            .putfh(a).read(CompoundBuilder.anonymousStateid(), 0, RECORD)
                            .putfh(b).read(CompoundBuilder.anonymousStateid(), 0, RECORD));
                    checkPair(r, "SEQUENCE, TEST_STATEID, PUTFH A, READ, PUTFH B, READ", violations);
                    reads.incrementAndGet();
                }
                return null;
            });
        }
        runAll(tasks);
        System.out.printf("%s: %d transactions, %d reads%n", getClass().getSimpleName(), rounds.get(), reads.get());

        assertThat(violations).as("what readers starting with TEST_STATEID saw").isEmpty();
        assertThat(reads.get()).isGreaterThan(50);
    }

    @Test
    void nfs40ReaderStartingWithRenewSeesNoHalfAndNoRolledBackTransaction() throws Exception {
        byte[] a = nfs.createFile(dir, "a", value('c', 0));
        byte[] b = nfs.createFile(dir, "b", value('c', 0));
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger rounds = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        List<Callable<Void>> tasks = new ArrayList<>();
        tasks.add(pairWriter(newClient("pair-writer"), a, b, done, violations, rounds));
        for (int n = 0; n < 2; n++) {
            NfsConnection connection = server.connect();
            opened.add(connection);
            Nfs40Client reader = Nfs40Client.create(connection, "renew-reader-" + n);
            tasks.add(() -> {
                while (!done.get()) {
                    CompoundResult r = reader.execute(new CompoundBuilder().renew(reader.clientId())
                            .putfh(a).read(CompoundBuilder.anonymousStateid(), 0, RECORD)
                            .putfh(b).read(CompoundBuilder.anonymousStateid(), 0, RECORD));
                    checkPair(r, "NFSv4.0 RENEW, PUTFH A, READ, PUTFH B, READ", violations);
                    reads.incrementAndGet();
                }
                return null;
            });
        }
        runAll(tasks);
        System.out.printf("%s: %d transactions, %d NFSv4.0 reads%n", getClass().getSimpleName(), rounds.get(),
                reads.get());

        assertThat(violations).as("what NFSv4.0 readers starting with RENEW saw").isEmpty();
        assertThat(reads.get()).isGreaterThan(50);
    }

    @Test
    void plainWritePastEofAfterTestStateidSurvivesConcurrentRollbacks() throws Exception {
        byte[] file = nfs.createFile(dir, "grows", new byte[0]);
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger rollbacks = new AtomicInteger();
        AtomicInteger acknowledged = new AtomicInteger();
        NfsOps txnClient = newClient("extend-and-fail");
        NfsOps plainClient = newClient("append-plain");
        List<Callable<Void>> tasks = new ArrayList<>();
        tasks.add(() -> {
            try {
                for (int round = 0; !done.get() && violations.isEmpty(); round++) {
                    CompoundResult r = txnClient.session().executeTransaction(new CompoundBuilder()
                            .tag("extend-" + round)
                            .putfh(file).write(CompoundBuilder.anonymousStateid(), 1 << 20, value('f', round))
                            .putfh(dir).lookup("no-such-name"));
                    if (r.status() != NfsStatus.NOENT) {
                        violations.add("failing transaction " + round + " answered " + r);
                    }
                    rollbacks.incrementAndGet();
                }
            } finally {
                done.set(true);
            }
            return null;
        });
        tasks.add(() -> {
            try {
                long start = System.nanoTime();
                for (int k = 0; System.nanoTime() - start < BUDGET_NANOS && k < 1_000_000; k++) {
                    CompoundResult r = plainClient.run(new CompoundBuilder().testStateid()
                            .putfh(file).write(CompoundBuilder.anonymousStateid(), (long) k * RECORD, value('p', k)));
                    if (!r.isOk()) {
                        violations.add("plain append " + k + ": " + r);
                        break;
                    }
                    acknowledged.incrementAndGet();
                }
            } finally {
                done.set(true);
            }
            return null;
        });
        runAll(tasks);
        byte[] content = nfs.read(file);
        int lost = 0;
        String firstLost = null;
        for (int k = 0; k < acknowledged.get(); k++) {
            String expected = new String(value('p', k), StandardCharsets.US_ASCII);
            String found = (long) (k + 1) * RECORD <= content.length
                    ? new String(content, k * RECORD, RECORD, StandardCharsets.US_ASCII) : "(past the end)";
            if (!expected.equals(found)) {
                lost++;
                if (firstLost == null) {
                    firstLost = "record " + k + " is " + found;
                }
            }
        }
        System.out.printf("%s: %d plain appends acknowledged, %d rollbacks, file of %d bytes%n",
                getClass().getSimpleName(), acknowledged.get(), rollbacks.get(), content.length);

        assertThat(violations).isEmpty();
        assertThat(lost).as("acknowledged plain WRITEs erased by rollbacks (first: %s)", firstLost).isZero();
        assertThat(content.length).as("no rolled-back data stays").isEqualTo(acknowledged.get() * RECORD);
        assertThat(rollbacks.get()).isGreaterThan(10);
    }
}
