package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lmdbjava.Dbi;

/**
 * {@link PendingRows}' point reads (its hash map) and scans (its sorted keys) agree while rows are added, replaced
 * by tombstones, committed and dropped concurrently.
 */
class PendingRowsIndexTest extends HandleTableTestBase {
    private static final int WRITERS = 3;
    private static final int KEYS = 150;
    private static final int DIRECTORIES = 4;

    /** LMDB as the rows see it: always the newest committed value (enough here, values never go back). */
    private static final class Disk implements Store {
        private final Map<Dbi<byte[]>, TreeMap<byte[], byte[]>> tables = new HashMap<>();

        private synchronized TreeMap<byte[], byte[]> table(Dbi<byte[]> dbi) {
            return tables.computeIfAbsent(dbi, d -> new TreeMap<>(Arrays::compareUnsigned));
        }

        @Override
        public synchronized byte[] get(Dbi<byte[]> dbi, byte[] key) {
            return table(dbi).get(key);
        }

        @Override
        public synchronized void put(Dbi<byte[]> dbi, byte[] key, byte[] value) {
            table(dbi).put(key.clone(), value.clone());
        }

        @Override
        public synchronized boolean delete(Dbi<byte[]> dbi, byte[] key) {
            return table(dbi).remove(key) != null;
        }

        @Override
        public synchronized void scan(Dbi<byte[]> dbi, byte[] prefix, BiConsumer<byte[], byte[]> action) {
            for (Map.Entry<byte[], byte[]> e : table(dbi).tailMap(prefix, true).entrySet()) {
                if (!Store.startsWith(e.getKey(), prefix)) {
                    break;
                }
                action.accept(e.getKey(), e.getValue());
            }
        }
    }

    private static byte[] key(int directory, int writer, int i) {
        return new byte[] {(byte) directory, (byte) (0x80 + writer), (byte) (i >> 8), (byte) i};
    }

    /** The value of {@code key} after round {@code round}, or null where that round removed it. */
    private static byte[] value(int round, int i) {
        return (round + i) % 3 == 0 ? null : new byte[] {(byte) round, (byte) i};
    }

    /** In a table whose keys are kept in order (names) and in one whose scans sort what they find (nodes). */
    @ParameterizedTest(name = "ordered={0}")
    @ValueSource(booleans = {true, false})
    void pointReadsAgreeWithScansWhileRowsAreAddedCommittedAndDropped(boolean ordered) throws Exception {
        PendingRows rows = new PendingRows(1_000_000, java.util.Set.of(table.names));
        Dbi<byte[]> dbi = ordered ? table.names : table.nodes;
        Disk disk = new Disk();
        int rounds = 6;
        AtomicBoolean[] finished = new AtomicBoolean[WRITERS];
        AtomicBoolean done = new AtomicBoolean();
        List<String> disagreements = Collections.synchronizedList(new ArrayList<>());
        AtomicLong checks = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            finished[w] = new AtomicBoolean();
            int writer = w;
            threads.add(new Thread(() -> {
                for (int round = 0; round < rounds; round++) {
                    for (int i = 0; i < KEYS; i++) {
                        OverlayStore changes = new OverlayStore(disk);
                        for (int d = 0; d < DIRECTORIES; d++) {
                            byte[] v = value(round, i);
                            if (v == null) {
                                changes.delete(dbi, key(d, writer, i));
                            } else {
                                changes.put(dbi, key(d, writer, i), v);
                            }
                        }
                        assertThat(rows.tryAdd(changes)).isTrue();
                    }
                }
                finished[writer].set(true);
            }));
        }
        threads.add(new Thread(() -> {
            while (!done.get()) {
                synchronized (rows) {
                    PendingRows.Drain drain = rows.drainInto(disk);
                    if (drain != null) {
                        rows.committed(drain);
                    }
                }
            }
        }));
        for (int r = 0; r < 2; r++) {
            Random random = new Random(r);
            threads.add(new Thread(() -> {
                while (!done.get()) {
                    int writer = random.nextInt(WRITERS);
                    if (!finished[writer].get()) {
                        continue;
                    }
                    int d = random.nextInt(DIRECTORIES);
                    long reader = rows.enter();
                    try {
                        check(rows.over(disk), dbi, d, writer, rounds - 1, disagreements);
                    } finally {
                        rows.exit(reader);
                    }
                    checks.incrementAndGet();
                }
            }));
        }
        threads.forEach(Thread::start);
        for (int w = 0; w < WRITERS; w++) {
            threads.get(w).join();
        }
        while (checks.get() < 200 && disagreements.isEmpty()) {
            Thread.sleep(5);
        }
        done.set(true);
        for (Thread t : threads) {
            t.join();
        }

        assertThat(disagreements).as("out of %d checks", checks.get()).isEmpty();
        for (int i = 0; i < 3; i++) {
            synchronized (rows) {
                PendingRows.Drain drain = rows.drainInto(disk);
                if (drain != null) {
                    rows.committed(drain);
                }
            }
        }
        assertThat(rows.size()).as("every row committed and dropped").isZero();
        for (int w = 0; w < WRITERS; w++) {
            for (int d = 0; d < DIRECTORIES; d++) {
                check(rows.over(disk), dbi, d, w, rounds - 1, disagreements);
            }
        }
        assertThat(disagreements).isEmpty();
    }

    /** Checks, through {@code store}, every key of {@code writer} in directory {@code d} after its last round. */
    private static void check(Store store, Dbi<byte[]> dbi, int d, int writer, int lastRound, List<String> out) {
        TreeMap<byte[], byte[]> scanned = new TreeMap<>(Arrays::compareUnsigned);
        store.scan(dbi, new byte[] {(byte) d, (byte) (0x80 + writer)}, scanned::put);
        for (int i = 0; i < KEYS; i++) {
            byte[] key = key(d, writer, i);
            byte[] expected = value(lastRound, i);
            byte[] read = store.get(dbi, key);
            if (!Arrays.equals(read, expected) || !Arrays.equals(scanned.get(key), expected)) {
                out.add(Arrays.toString(key) + ": expected " + Arrays.toString(expected) + ", read "
                        + Arrays.toString(read) + ", scanned " + Arrays.toString(scanned.get(key)));
            }
        }
        if (scanned.size() != (int) java.util.stream.IntStream.range(0, KEYS)
                .filter(i -> value(lastRound, i) != null).count()) {
            out.add("directory " + d + " writer " + writer + ": scan found " + scanned.size() + " keys");
        }
    }
}
