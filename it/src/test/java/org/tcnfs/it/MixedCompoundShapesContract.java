package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_ILLEGAL;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_OPENATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_WRITE;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs40Client;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.secinfo_style4;

/**
 * Plain compounds of every shape against transactions that fail half the time (issue 13, "Tests"; DESIGN.md
 * "The transaction protocol" step 3: every compound that touches file-system objects locks them, whatever
 * its first or last operation). Two transactional writers set all {@value #FILES} files of a group to one
 * value per transaction (half of them fail at a random point after some of the WRITEs, and then also extend
 * the plain appenders' files, so that a rollback which ignored a concurrent plain WRITE would truncate it).
 * Plain readers read a random subset of the group in one compound, and plain appenders add 16-byte records
 * past EOF, each compound in a random shape: PUTFH first, TEST_STATEID first, PUTROOTFH and LOOKUPs,
 * SECINFO_NO_NAME in the middle, an unknown operation (999) or one the server does not decode (OPENATTR)
 * last, an ILLEGAL operation first, and NFSv4.0 compounds (plain, and starting with RENEW).
 *
 * <p>Checks: no read sees two different values in the group (half a transaction) or the value of a rolled
 * back one; every acknowledged plain WRITE is in its file at the end, and nothing else is.
 * Seeded ({@code -Dtcnfs.it.seed=N}); budget {@code -Dtcnfs.it.mixed-shapes.seconds} (default 20).
 */
abstract class MixedCompoundShapesContract extends SharedServerTest {
    private static final long SEED = Long.getLong("tcnfs.it.seed", System.nanoTime());
    private static final long BUDGET_NANOS = Long.getLong("tcnfs.it.mixed-shapes.seconds", 20) * 1_000_000_000L;
    private static final int FILES = 4;
    private static final int RECORD = 16;
    private static final int UNKNOWN_OP = 999;

    private ThreadClients testClients;
    private NfsOps nfs;

    @Override
    abstract Path workDirectory() throws IOException;

    @BeforeAll
    void printSeed() {
        System.out.println(getClass().getSimpleName() + ": seed " + SEED + " (-Dtcnfs.it.seed=" + SEED + ")");
    }

    @BeforeEach
    void connect() throws IOException {
        testClients = ThreadClients.open(server, "mixed-shapes");
        nfs = testClients.nfs();
    }

    @AfterEach
    void disconnect() throws Exception {
        testClients.close();
    }

    private static byte[] value(char kind, int writer, int round) {
        return String.format("%c%02d%013d", kind, writer, round).getBytes(StandardCharsets.US_ASCII);
    }

    private static String text(READ4resok read) {
        ByteBuffer data = read.data.duplicate();
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /** The shapes of a plain compound; how each starts and ends. */
    private enum Shape {
        PUTFH_FIRST, TEST_STATEID_FIRST, BY_NAME_FROM_ROOT, SECINFO_NO_NAME_BETWEEN, UNKNOWN_OP_LAST,
        UNDECODED_OP_LAST, ILLEGAL_FIRST, NFS40, NFS40_RENEW_FIRST;

        boolean nfs40() {
            return this == NFS40 || this == NFS40_RENEW_FIRST;
        }
    }

    /** The group's files and the appenders' files, with their handles and names. */
    private record Tree(String dirName, byte[] dir, byte[][] files, byte[][] appendFiles) {
        static String fileName(int i) {
            return "f" + i;
        }

        static String appendName(int i) {
            return "append" + i;
        }
    }

    /**
     * {@code body} (which starts with a PUTFH or PUTROOTFH-LOOKUP of its target) in {@code shape}: what
     * comes before it and after it.
     */
    private static CompoundBuilder shaped(Shape shape, Tree tree, Nfs40Client client40) {
        CompoundBuilder b = new CompoundBuilder().tag("shape-" + shape);
        switch (shape) {
            case TEST_STATEID_FIRST -> b.testStateid();
            case SECINFO_NO_NAME_BETWEEN -> b.putfh(tree.dir()).secinfoNoName(secinfo_style4.SECINFO_STYLE4_CURRENT_FH);
            case NFS40_RENEW_FIRST -> b.renew(client40.clientId());
            default -> {
            }
        }
        return b;
    }

    /** Puts the current file handle on {@code name} of the tree's directory in the way {@code shape} does. */
    private static void target(CompoundBuilder b, Shape shape, Tree tree, byte[] handle, String name) {
        if (shape == Shape.BY_NAME_FROM_ROOT) {
            b.putrootfh().lookup(tree.dirName()).lookup(name);
        } else {
            b.putfh(handle);
        }
    }

    private static void ending(CompoundBuilder b, Shape shape) {
        if (shape == Shape.UNKNOWN_OP_LAST) {
            b.op(UNKNOWN_OP, null);
        } else if (shape == Shape.UNDECODED_OP_LAST) {
            b.op(OP_OPENATTR, null);
        }
    }

    private static CompoundResult send(Shape shape, CompoundBuilder b, NfsOps client, Nfs40Client client40)
            throws IOException {
        return shape.nfs40() ? client40.execute(b) : client.run(b);
    }

    private static NfsStatus expectedStatus(Shape shape) {
        return switch (shape) {
            case UNKNOWN_OP_LAST, ILLEGAL_FIRST -> NfsStatus.OP_ILLEGAL;
            // a defined operation the server does not implement: NFS4ERR_NOTSUPP at its position (RFC 8881 15.1.1.5)
            case UNDECODED_OP_LAST -> NfsStatus.NOTSUPP;
            default -> NfsStatus.OK;
        };
    }

    private static Shape pick(Random random) {
        Shape[] all = Shape.values();
        return all[random.nextInt(all.length)];
    }

    @Test
    void noPlainCompoundOfAnyShapeSeesPartOfATransactionOrLosesAnAcknowledgedWrite() throws Exception {
        String dirName = "mixed-" + SEED;
        byte[] dir = nfs.mkdir(nfs.rootFh(), dirName);
        byte[][] files = new byte[FILES][];
        for (int i = 0; i < FILES; i++) {
            files[i] = nfs.createFile(dir, Tree.fileName(i), value('c', 0, 0));
        }
        byte[][] appendFiles = {nfs.createFile(dir, Tree.appendName(0), new byte[0]),
                nfs.createFile(dir, Tree.appendName(1), new byte[0])};
        Tree tree = new Tree(dirName, dir, files, appendFiles);

        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger commits = new AtomicInteger();
        AtomicInteger rollbacks = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger[] acknowledged = {new AtomicInteger(), new AtomicInteger()};
        int[] shapesRun = new int[Shape.values().length];
        long start = System.nanoTime();
        List<Callable<Void>> tasks = new ArrayList<>();

        for (int w = 1; w <= 2; w++) {
            int writer = w;
            NfsOps client = testClients.newClient("mixed-txn-" + w);
            Random random = new Random(SEED * 31 + w);
            tasks.add(() -> {
                try {
                    for (int round = 1; System.nanoTime() - start < BUDGET_NANOS && violations.isEmpty(); round++) {
                        boolean fail = random.nextBoolean();
                        byte[] v = value(fail ? 'f' : 'c', writer, round);
                        CompoundBuilder txn = new CompoundBuilder().tag("txn-" + writer + "-" + round);
                        if (random.nextBoolean()) {
                            txn.testStateid();
                        }
                        int failAfter = fail ? 1 + random.nextInt(FILES) : FILES;
                        for (int i = 0; i < FILES; i++) {
                            txn.putfh(files[i]).write(CompoundBuilder.anonymousStateid(), 0, v);
                            if (i + 1 == failAfter && fail) {
                                for (byte[] a : appendFiles) {
                                    txn.putfh(a).write(CompoundBuilder.anonymousStateid(), 1 << 20, v);
                                }
                                txn.putfh(dir).lookup("no-such-name");
                                break;
                            }
                        }
                        CompoundResult r = client.session().executeTransaction(txn);
                        NfsStatus expected = fail ? NfsStatus.NOENT : NfsStatus.OK;
                        if (r.status() != expected) {
                            violations.add("seed " + SEED + ": transaction answered " + r.status() + ", not " + expected
                                    + ": " + r);
                        }
                        (fail ? rollbacks : commits).incrementAndGet();
                    }
                } finally {
                    stop.set(true);
                }
                return null;
            });
        }
        for (int n = 0; n < 2; n++) {
            NfsOps client = testClients.newClient("mixed-reader-" + n);
            Nfs40Client client40 = testClients.newClient40("mixed-reader40-" + n);
            Random random = new Random(SEED * 37 + n);
            tasks.add(() -> {
                while (!stop.get()) {
                    Shape shape = pick(random);
                    synchronized (shapesRun) {
                        shapesRun[shape.ordinal()]++;
                    }
                    CompoundBuilder b = shaped(shape, tree, client40);
                    if (shape == Shape.ILLEGAL_FIRST) {
                        b.op(OP_ILLEGAL, null);
                    }
                    int count = 2 + random.nextInt(FILES - 1);
                    int first = random.nextInt(FILES);
                    for (int k = 0; k < count; k++) {
                        int i = (first + k) % FILES;
                        target(b, shape, tree, files[i], Tree.fileName(i));
                        b.read(CompoundBuilder.anonymousStateid(), 0, RECORD);
                    }
                    ending(b, shape);
                    CompoundResult r = send(shape, b, client, client40);
                    if (r.status() != expectedStatus(shape)) {
                        violations.add("seed " + SEED + ": reader's " + shape + " answered " + r);
                        continue;
                    }
                    List<READ4resok> got = r.bodies(OP_READ, READ4resok.class);
                    if (shape != Shape.ILLEGAL_FIRST && got.size() != count) {
                        violations.add("seed " + SEED + ": " + shape + " read " + got.size() + " of " + count);
                        continue;
                    }
                    for (READ4resok read : got) {
                        String seen = text(read);
                        String firstSeen = text(got.get(0));
                        if (!seen.equals(firstSeen)) {
                            violations.add("seed " + SEED + ": " + shape + " saw half a transaction: " + firstSeen
                                    + " and " + seen);
                        } else if (!seen.startsWith("c")) {
                            violations.add("seed " + SEED + ": " + shape + " saw a rolled-back transaction: " + seen);
                        }
                    }
                    reads.incrementAndGet();
                }
                return null;
            });
        }
        for (int n = 0; n < 2; n++) {
            int file = n;
            NfsOps client = testClients.newClient("mixed-appender-" + n);
            Nfs40Client client40 = testClients.newClient40("mixed-appender40-" + n);
            Random random = new Random(SEED * 41 + n);
            tasks.add(() -> {
                for (int k = 0; !stop.get(); ) {
                    Shape shape = pick(random);
                    if (shape == Shape.ILLEGAL_FIRST) {
                        continue;
                    }
                    synchronized (shapesRun) {
                        shapesRun[shape.ordinal()]++;
                    }
                    CompoundBuilder b = shaped(shape, tree, client40);
                    target(b, shape, tree, appendFiles[file], Tree.appendName(file));
                    b.write(CompoundBuilder.anonymousStateid(), (long) k * RECORD, value('p', file, k));
                    ending(b, shape);
                    CompoundResult r = send(shape, b, client, client40);
                    nfs_resop4 write = r.first(OP_WRITE);
                    if (r.status() != expectedStatus(shape) || write == null || write.status != NfsStatus.OK.code()) {
                        violations.add("seed " + SEED + ": appender's " + shape + " answered " + r);
                        break;
                    }
                    k++;
                    acknowledged[file].incrementAndGet();
                }
                return null;
            });
        }
        try {
            ThreadClients.runAll(tasks, BUDGET_NANOS);
        } finally {
            stop.set(true);
        }

        for (int file = 0; file < appendFiles.length; file++) {
            byte[] content = nfs.read(appendFiles[file]);
            int n = acknowledged[file].get();
            for (int k = 0; k < n; k++) {
                String expected = new String(value('p', file, k), StandardCharsets.US_ASCII);
                String found = (long) (k + 1) * RECORD <= content.length
                        ? new String(content, k * RECORD, RECORD, StandardCharsets.US_ASCII) : "(past the end)";
                if (!expected.equals(found)) {
                    violations.add("seed " + SEED + ": acknowledged plain append " + k + " to " + Tree.appendName(file)
                            + " is " + found);
                    break;
                }
            }
            if (content.length != n * RECORD) {
                violations.add("seed " + SEED + ": " + Tree.appendName(file) + " has " + content.length
                        + " bytes, not the " + n * RECORD + " its acknowledged appends wrote");
            }
        }
        List<String> counts = new ArrayList<>();
        for (Shape s : Shape.values()) {
            counts.add(s + "=" + shapesRun[s.ordinal()]);
        }
        System.out.printf("%s: %d commits, %d rollbacks, %d reads, %d + %d appends, shapes %s, in %d ms%n",
                getClass().getSimpleName(), commits.get(), rollbacks.get(), reads.get(), acknowledged[0].get(),
                acknowledged[1].get(), counts, (System.nanoTime() - start) / 1_000_000);

        assertThat(violations).as("seed %d", SEED).isEmpty();
        assertThat(rollbacks.get()).isGreaterThan(10);
        assertThat(commits.get()).isGreaterThan(10);
        assertThat(reads.get()).isGreaterThan(100);
    }
}
