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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs40Client;
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

    private ThreadClients testClients;
    private NfsOps nfs;
    private byte[] dir;

    /** Where the server's export and state directories go. */
    @Override
    abstract java.nio.file.Path workDirectory() throws IOException;

    @BeforeEach
    void connect(TestInfo test) throws IOException {
        testClients = ThreadClients.open(server, "locking-it");
        nfs = testClients.nfs();
        dir = nfs.mkdir(nfs.rootFh(), test.getTestMethod().orElseThrow().getName());
    }

    @AfterEach
    void disconnect() throws Exception {
        testClients.close();
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
        ThreadClients.runAll(tasks, BUDGET_NANOS);
    }

    /** How one reader reads both files of the pair in one compound. */
    private interface PairReader {
        CompoundResult read(byte[] a, byte[] b) throws IOException;
    }

    /** Opens reader {@code n} of a race. */
    private interface PairReaders {
        PairReader open(int n) throws IOException;
    }

    /** What the readers of a race saw wrong, and how many transactions and reads ran. */
    private record PairRace(ConcurrentLinkedQueue<String> violations, int rounds, int reads) {
    }

    /**
     * Two files "a" and "b" written by {@link #pairWriter} for the time budget while two readers, opened by
     * {@code readers}, read both in one compound of the given shape until the writer is done.
     */
    private PairRace racePairWriterAgainstReaders(PairReaders readers, String shape) throws Exception {
        byte[] a = nfs.createFile(dir, "a", value('c', 0));
        byte[] b = nfs.createFile(dir, "b", value('c', 0));
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger rounds = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        List<Callable<Void>> tasks = new ArrayList<>();
        tasks.add(pairWriter(testClients.newClient("pair-writer"), a, b, done, violations, rounds));
        for (int n = 0; n < 2; n++) {
            PairReader reader = readers.open(n);
            tasks.add(() -> {
                while (!done.get()) {
                    CompoundResult r = reader.read(a, b);
                    checkPair(r, shape, violations);
                    reads.incrementAndGet();
                }
                return null;
            });
        }
        runAll(tasks);
        return new PairRace(violations, rounds.get(), reads.get());
    }

    @Test
    void readerStartingWithTestStateidSeesNoHalfAndNoRolledBackTransaction() throws Exception {
        PairRace race = racePairWriterAgainstReaders(n -> {
            NfsOps reader = testClients.newClient("test-stateid-reader-" + n);
            return (a, b) -> reader.run(new CompoundBuilder().testStateid()
                    .putfh(a).read(CompoundBuilder.anonymousStateid(), 0, RECORD)
                    .putfh(b).read(CompoundBuilder.anonymousStateid(), 0, RECORD));
        }, "SEQUENCE, TEST_STATEID, PUTFH A, READ, PUTFH B, READ");
        System.out.printf("%s: %d transactions, %d reads%n", getClass().getSimpleName(), race.rounds(), race.reads());

        assertThat(race.violations()).as("what readers starting with TEST_STATEID saw").isEmpty();
        assertThat(race.reads()).isGreaterThan(50);
    }

    @Test
    void nfs40ReaderStartingWithRenewSeesNoHalfAndNoRolledBackTransaction() throws Exception {
        PairRace race = racePairWriterAgainstReaders(n -> {
            Nfs40Client reader = testClients.newClient40("renew-reader-" + n);
            return (a, b) -> reader.execute(new CompoundBuilder().renew(reader.clientId())
                    .putfh(a).read(CompoundBuilder.anonymousStateid(), 0, RECORD)
                    .putfh(b).read(CompoundBuilder.anonymousStateid(), 0, RECORD));
        }, "NFSv4.0 RENEW, PUTFH A, READ, PUTFH B, READ");
        System.out.printf("%s: %d transactions, %d NFSv4.0 reads%n", getClass().getSimpleName(), race.rounds(),
                race.reads());

        assertThat(race.violations()).as("what NFSv4.0 readers starting with RENEW saw").isEmpty();
        assertThat(race.reads()).isGreaterThan(50);
    }

    @Test
    void plainWritePastEofAfterTestStateidSurvivesConcurrentRollbacks() throws Exception {
        byte[] file = nfs.createFile(dir, "grows", new byte[0]);
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger rollbacks = new AtomicInteger();
        AtomicInteger acknowledged = new AtomicInteger();
        NfsOps txnClient = testClients.newClient("extend-and-fail");
        NfsOps plainClient = testClients.newClient("append-plain");
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
