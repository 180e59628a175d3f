package org.tcnfs.txn.handles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.vfs.FileType;

class HandleTableTest extends HandleTableTestBase {
    private static final String EXPORT = "data";

    @Test
    void handlesHaveSixteenBytesAndRoundTrip() {
        Nfh handle = Nfh.random();
        assertThat(handle.toBytes()).hasSize(16);
        assertThat(Nfh.of(handle.toBytes())).isEqualTo(handle);
        assertThatThrownBy(() -> Nfh.of(new byte[15])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rootHandleIsCreatedOnceAndSurvivesReopen() {
        Nfh first = root();
        assertThat(root()).isEqualTo(first);
        reopen();
        assertThat(root()).isEqualTo(first);
        assertThat(table.root(EXPORT)).contains(first);
        assertThat(table.node(first).orElseThrow().isRoot()).isTrue();
    }

    @Test
    void rootFollowsAReplacedRootDirectoryAndKeepsItsHandle() {
        Nfh first = root();
        try (HandleBatch batch = table.write()) {
            assertThat(batch.ensureRoot(EXPORT, 1, 99, 0)).isEqualTo(first);
            batch.commit();
        }
        assertThat(table.node(first).orElseThrow().ino()).isEqualTo(99);
        assertThat(table.byInode(EXPORT, 99)).contains(first);
        assertThat(table.byInode(EXPORT, 2)).isEmpty();
    }

    @Test
    void everyMappingPersistsAcrossReopen() {
        Nfh root = root();
        Nfh dir = add(root, "dir", FileType.DIRECTORY, 10);
        Nfh file = add(dir, "file.txt", FileType.REGULAR, 11);
        reopen();
        Node node = table.node(file).orElseThrow();
        assertThat(node).isEqualTo(
                new Node(file, EXPORT, FileType.REGULAR, 1, 11, 0, List.of(new Link(dir, "file.txt"))));
        assertThat(table.child(root, "dir")).contains(dir);
        assertThat(table.child(dir, "file.txt")).contains(file);
        assertThat(table.byInode(EXPORT, 11)).contains(file);
        assertThat(table.path(file)).contains(List.of("dir", "file.txt"));
        assertThat(table.path(root)).contains(List.of());
    }

    @Test
    void theGenerationIsStoredAndTellsAReusedInodeNumberApart() {
        Nfh root = root();
        Nfh file;
        try (HandleBatch batch = table.write()) {
            file = batch.register(root, "f", FileType.REGULAR, 1, 10, 1_234_567_890_123L);
            batch.commit();
        }
        reopen();
        Node node = table.node(file).orElseThrow();
        assertThat(node.generation()).isEqualTo(1_234_567_890_123L);
        assertThat(node.isSameObject(10, 1_234_567_890_123L)).isTrue();
        assertThat(node.isSameObject(10, 0)).as("unknown generation").isTrue();
        assertThat(node.isSameObject(10, 999)).isFalse();
        assertThat(node.isSameObject(11, 1_234_567_890_123L)).isFalse();
    }

    @Test
    void unicodeNamesOfTheMaximumLengthAreStored() {
        Nfh root = root();
        String name = "é".repeat(127) + "x";
        assertThat(name.getBytes(StandardCharsets.UTF_8)).hasSize(255);
        Nfh file = add(root, name, FileType.REGULAR, 5);
        assertThat(table.child(root, name)).contains(file);
        assertThatThrownBy(() -> add(root, name + "y", FileType.REGULAR, 6))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void improperNamesAreRefused() {
        Nfh root = root();
        for (String bad : List.of("", ".", "..", "a/b", "a\0b")) {
            assertThatThrownBy(() -> add(root, bad, FileType.REGULAR, 7)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(table.byInode(EXPORT, 7)).isEmpty();
    }

    @Test
    void aReusedReadTransactionSeesWhatWasCommittedAfterItsLastUse() {
        Nfh root = root();
        try (HandleSnapshot before = table.read()) {
            assertThat(before.child(root, "late")).isEmpty();
        }
        assertThat(table.idleReadTransactions()).isEqualTo(1);
        Nfh late = add(root, "late", FileType.REGULAR, 30);

        try (HandleSnapshot after = table.read()) {
            assertThat(after.child(root, "late")).contains(late);
        }
    }

    @Test
    void readTransactionsKeptForReuseAreBoundedAndReaderSlotsAreNotExhausted() throws Exception {
        table.close();
        table = HandleTable.builder(state).maxReaders(HandleTable.MAX_IDLE_READ_TRANSACTIONS + 8).open();
        Nfh root = root();
        List<HandleSnapshot> open = new ArrayList<>();
        for (int i = 0; i < HandleTable.MAX_IDLE_READ_TRANSACTIONS + 4; i++) {
            open.add(table.read());
        }
        open.forEach(HandleSnapshot::close);
        assertThat(table.idleReadTransactions()).isEqualTo(HandleTable.MAX_IDLE_READ_TRANSACTIONS);
        for (int i = 0; i < 10_000; i++) {
            try (HandleSnapshot snapshot = table.read()) {
                assertThat(snapshot.node(root)).isPresent();
            }
        }
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> reads = new ArrayList<>();
            for (int i = 0; i < 4_000; i++) {
                reads.add(threads.submit(() -> {
                    try (HandleSnapshot snapshot = table.read()) {
                        return snapshot.node(root).isPresent();
                    }
                }));
            }
            for (Future<Boolean> r : reads) {
                assertThat(r.get(30, TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(table.idleReadTransactions()).isLessThanOrEqualTo(HandleTable.MAX_IDLE_READ_TRANSACTIONS);
    }

    @Test
    void hardLinksShareOneHandleUntilTheLastNameGoes() {
        Nfh root = root();
        Nfh dir = add(root, "d", FileType.DIRECTORY, 10);
        Nfh file = add(root, "a", FileType.REGULAR, 11);
        try (HandleBatch batch = table.write()) {
            batch.addLink(file, dir, "b");
            batch.commit();
        }
        assertThat(table.child(dir, "b")).contains(file);
        assertThat(table.node(file).orElseThrow().links()).containsExactly(new Link(root, "a"), new Link(dir, "b"));

        try (HandleBatch batch = table.write()) {
            assertThat(batch.unlink(root, "a")).contains(new HandleBatch.Unlinked(file, false));
            batch.commit();
        }
        assertThat(table.node(file).orElseThrow().links()).containsExactly(new Link(dir, "b"));
        assertThat(table.path(file)).contains(List.of("d", "b"));
        assertThat(table.byInode(EXPORT, 11)).contains(file);

        try (HandleBatch batch = table.write()) {
            assertThat(batch.unlink(dir, "b")).contains(new HandleBatch.Unlinked(file, true));
            batch.commit();
        }
        assertThat(table.node(file)).isEmpty();
        assertThat(table.byInode(EXPORT, 11)).isEmpty();
        assertThat(table.child(dir, "b")).isEmpty();
    }

    @Test
    void aDirectoryCannotGetASecondName() {
        Nfh root = root();
        Nfh dir = add(root, "d", FileType.DIRECTORY, 10);
        try (HandleBatch batch = table.write()) {
            assertThatThrownBy(() -> batch.addLink(dir, root, "e")).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void registeringATakenNameOrInodeFails() {
        Nfh root = root();
        add(root, "a", FileType.REGULAR, 11);
        try (HandleBatch batch = table.write()) {
            assertThatThrownBy(() -> batch.register(root, "a", FileType.REGULAR, 1, 12, 0))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> batch.register(root, "b", FileType.REGULAR, 1, 11, 0))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void renamingADirectoryKeepsDescendantsHandlesAndMovesTheirPaths() {
        Nfh root = root();
        Nfh a = add(root, "a", FileType.DIRECTORY, 10);
        Nfh b = add(a, "b", FileType.DIRECTORY, 11);
        Nfh c = add(b, "c", FileType.REGULAR, 12);
        Nfh other = add(root, "other", FileType.DIRECTORY, 13);
        try (HandleBatch batch = table.write()) {
            HandleBatch.Renamed renamed = batch.rename(root, "a", other, "z");
            assertThat(renamed.moved()).contains(a);
            assertThat(renamed.replaced()).isEmpty();
            batch.commit();
        }
        assertThat(table.path(c)).contains(List.of("other", "z", "b", "c"));
        assertThat(table.path(b)).contains(List.of("other", "z", "b"));
        assertThat(table.child(root, "a")).isEmpty();
        assertThat(table.child(other, "z")).contains(a);
        assertThat(table.child(a, "b")).contains(b);
        assertThat(table.node(a).orElseThrow().links()).containsExactly(new Link(other, "z"));
    }

    @Test
    void renameOverAnExistingNameDropsTheReplacedHandle() {
        Nfh root = root();
        Nfh x = add(root, "x", FileType.REGULAR, 10);
        Nfh y = add(root, "y", FileType.REGULAR, 11);
        try (HandleBatch batch = table.write()) {
            HandleBatch.Renamed renamed = batch.rename(root, "x", root, "y");
            assertThat(renamed.replaced()).contains(new HandleBatch.Unlinked(y, true));
            batch.commit();
        }
        assertThat(table.child(root, "y")).contains(x);
        assertThat(table.node(y)).isEmpty();
        assertThat(table.byInode(EXPORT, 11)).isEmpty();
    }

    @Test
    void renameOntoAnotherNameOfTheSameObjectChangesNothing() {
        Nfh root = root();
        Nfh x = add(root, "x", FileType.REGULAR, 10);
        try (HandleBatch batch = table.write()) {
            batch.addLink(x, root, "y");
            HandleBatch.Renamed renamed = batch.rename(root, "x", root, "y");
            assertThat(renamed.replaced()).isEmpty();
            batch.commit();
        }
        assertThat(table.node(x).orElseThrow().links()).containsExactly(new Link(root, "x"), new Link(root, "y"));
    }

    @Test
    void aDirectoryCannotMoveBeneathItself() {
        Nfh root = root();
        Nfh a = add(root, "a", FileType.DIRECTORY, 10);
        Nfh b = add(a, "b", FileType.DIRECTORY, 11);
        try (HandleBatch batch = table.write()) {
            assertThatThrownBy(() -> batch.rename(root, "a", b, "a2")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> batch.rename(root, "a", a, "a2")).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(table.path(b)).contains(List.of("a", "b"));
    }

    @Test
    void removingADirectoryNameForgetsEverythingBeneathIt() {
        Nfh root = root();
        Nfh a = add(root, "a", FileType.DIRECTORY, 10);
        Nfh b = add(a, "b", FileType.DIRECTORY, 11);
        Nfh c = add(b, "c", FileType.REGULAR, 12);
        Nfh keep = add(root, "keep", FileType.REGULAR, 13);
        try (HandleBatch batch = table.write()) {
            batch.addLink(c, root, "c-elsewhere");
            assertThat(batch.unlink(root, "a")).contains(new HandleBatch.Unlinked(a, true));
            batch.commit();
        }
        assertThat(table.node(a)).isEmpty();
        assertThat(table.node(b)).isEmpty();
        assertThat(table.child(b, "c")).isEmpty();
        assertThat(table.node(c).orElseThrow().links()).containsExactly(new Link(root, "c-elsewhere"));
        assertThat(table.node(keep)).isPresent();
        assertThat(table.byInode(EXPORT, 11)).isEmpty();
    }

    @Test
    void closingABatchWithoutCommitRollsBack() {
        Nfh root = root();
        try (HandleBatch batch = table.write()) {
            Nfh file = batch.register(root, "f", FileType.REGULAR, 1, 10, 0);
            assertThat(batch.child(root, "f")).contains(file);
            assertThat(batch.path(file)).contains(List.of("f"));
        }
        assertThat(table.child(root, "f")).isEmpty();
        assertThat(table.byInode(EXPORT, 10)).isEmpty();
        HandleBatch batch = table.write();
        batch.close();
        batch.close();
        assertThatThrownBy(batch::commit).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void chosenHandlesAreRegisteredAsGiven() {
        Nfh root = root();
        Nfh chosen = Nfh.random();
        try (HandleBatch batch = table.write()) {
            batch.register(chosen, root, "f", FileType.REGULAR, 1, 10, 0);
            assertThatThrownBy(() -> batch.register(chosen, root, "g", FileType.REGULAR, 1, 11, 0))
                    .isInstanceOf(IllegalStateException.class);
            batch.commit();
        }
        assertThat(table.child(root, "f")).contains(chosen);
    }

    @Test
    void exportsAreSeparate() {
        Nfh rootA;
        Nfh rootB;
        try (HandleBatch batch = table.write()) {
            rootA = batch.ensureRoot("a", 1, 2, 0);
            rootB = batch.ensureRoot("b", 1, 2, 0);
            batch.commit();
        }
        assertThat(rootA).isNotEqualTo(rootB);
        Nfh inA = add(rootA, "f", FileType.REGULAR, 10);
        Nfh inB = add(rootB, "f", FileType.REGULAR, 10);
        assertThat(table.byInode("a", 10)).contains(inA);
        assertThat(table.byInode("b", 10)).contains(inB);
        assertThat(table.node(inB).orElseThrow().exportId()).isEqualTo("b");
        try (HandleBatch batch = table.write()) {
            assertThatThrownBy(() -> batch.addLink(inA, rootB, "g")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> batch.rename(rootA, "f", rootB, "g")).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void sideTableRecordsCommitAndRollBackWithTheHandles() {
        SideTable records = table.sideTable("recovery");
        Nfh root = root();
        byte[] key = {1, 2, 3};
        try (HandleBatch batch = table.write()) {
            batch.register(root, "f", FileType.REGULAR, 1, 10, 0);
            batch.put(records, key, new byte[] {9});
        }
        try (HandleSnapshot snapshot = table.read()) {
            assertThat(snapshot.get(records, key)).isEmpty();
            assertThat(snapshot.child(root, "f")).isEmpty();
        }
        try (HandleBatch batch = table.write()) {
            batch.register(root, "f", FileType.REGULAR, 1, 10, 0);
            batch.put(records, key, new byte[] {9});
            batch.commit();
        }
        reopen();
        assertThat(table.sideTableNames()).containsExactly("recovery");
        SideTable reopened = table.sideTable("recovery");
        List<String> seen = new ArrayList<>();
        try (HandleSnapshot snapshot = table.read()) {
            assertThat(snapshot.get(reopened, key)).hasValueSatisfying(v -> assertThat(v).containsExactly(9));
            snapshot.forEach(reopened, (k, v) -> seen.add(k.length + ":" + v[0]));
            assertThat(snapshot.child(root, "f")).isPresent();
        }
        assertThat(seen).containsExactly("3:9");
        try (HandleBatch batch = table.write()) {
            assertThat(batch.delete(reopened, key)).isTrue();
            batch.commit();
        }
        try (HandleSnapshot snapshot = table.read()) {
            assertThat(snapshot.get(reopened, key)).isEmpty();
        }
    }

    @Test
    void aSnapshotDoesNotSeeLaterCommits() {
        Nfh root = root();
        try (HandleSnapshot snapshot = table.read()) {
            add(root, "f", FileType.REGULAR, 10);
            assertThat(snapshot.child(root, "f")).isEmpty();
        }
        assertThat(table.child(root, "f")).isPresent();
    }

    @Test
    void readersRunWhileAWriterCommitsAndAlwaysSeeConsistentPaths() throws Exception {
        Nfh root = root();
        Nfh a = add(root, "a", FileType.DIRECTORY, 10);
        Nfh b = add(root, "b", FileType.DIRECTORY, 11);
        Nfh leaf = add(a, "leaf", FileType.REGULAR, 12);
        AtomicBoolean done = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try {
            CountDownLatch started = new CountDownLatch(4);
            List<Future<Integer>> readers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                readers.add(pool.submit(() -> {
                    started.countDown();
                    int reads = 0;
                    while (!done.get()) {
                        try (HandleSnapshot snapshot = table.read()) {
                            List<String> path = snapshot.path(leaf).orElseThrow();
                            Optional<Nfh> underA = snapshot.child(a, "leaf");
                            Optional<Nfh> underB = snapshot.child(b, "leaf");
                            // exactly one of the two names exists, and the derived path agrees with it
                            assertThat(underA.isPresent()).isNotEqualTo(underB.isPresent());
                            assertThat(path).isEqualTo(List.of(underA.isPresent() ? "a" : "b", "leaf"));
                        }
                        reads++;
                    }
                    return reads;
                }));
            }
            Future<?> writer = pool.submit(() -> {
                started.await();
                for (int i = 0; i < 300; i++) {
                    try (HandleBatch batch = table.write()) {
                        if (i % 2 == 0) {
                            batch.rename(a, "leaf", b, "leaf");
                        } else {
                            batch.rename(b, "leaf", a, "leaf");
                        }
                        batch.register(root, "f" + i, FileType.REGULAR, 1, 1000 + i, 0);
                        batch.commit();
                    }
                }
                return null;
            });
            writer.get(60, TimeUnit.SECONDS);
            done.set(true);
            for (Future<Integer> reader : readers) {
                assertThat(reader.get(60, TimeUnit.SECONDS)).isPositive();
            }
        } finally {
            done.set(true);
            pool.shutdownNow();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(table.path(leaf)).contains(List.of("a", "leaf"));
        assertThat(table.byInode(EXPORT, 1299)).isPresent();
    }

    @Test
    void commitsWithoutSyncBecomeDurableOnSync() {
        table.close();
        table = HandleTable.builder(state).durability(HandleTable.Durability.NONE).open();
        Nfh root = root();
        Nfh file = add(root, "f", FileType.REGULAR, 10);
        table.sync();
        reopen();
        assertThat(table.child(root, "f")).contains(file);
    }

    @Test
    void mapSizeBelowOneMebibyteIsRefused() {
        assertThatThrownBy(() -> HandleTable.builder(state.resolve("x")).mapSize(4096).open())
                .isInstanceOf(IllegalArgumentException.class);
    }
}
