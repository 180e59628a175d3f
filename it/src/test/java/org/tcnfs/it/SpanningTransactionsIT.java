package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.tcnfs.client.Attrs;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.Nfs41Session.SpanningTransaction;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.OPEN4args;

/**
 * Transactions that span compounds through the wire (issue 15 item 2; docs/protocol.md "Transactions that span
 * compounds"): TXN_BEGIN, any number of TXN_COMPOUNDs, TXN_COMMIT or TXN_ABORT, against the real server with a
 * short {@code txn-idle-timeout} and a small {@code txn-max-bytes}. Each test works in a fresh directory. It runs
 * alone ({@link ForkTurns}): the idle timeout and the DELAY answer are timed.
 */
@Tag(ForkTurns.ALONE)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpanningTransactionsIT {
    private static final int MAX_BYTES = 3 << 20;
    private static final int MAX_OPEN = 6;

    private ServerProcess server;
    private ItSession it;
    private ItSession other;
    private byte[] dir;
    private String dirName;
    private int round;

    @BeforeAll
    void start() throws IOException {
        server = ServerProcess.startIn(ServerProcess.defaultWorkDirectory(), List.of(), "--txn-idle-timeout", "1500ms",
                "--txn-max-bytes", Integer.toString(MAX_BYTES), "--max-open-txns", Integer.toString(MAX_OPEN));
    }

    @AfterAll
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void sessions() throws IOException {
        it = ItSession.open(server, "span");
        other = ItSession.open(server, "reader");
        dirName = "t" + (++round);
        // a transaction a failed test left open holds its locks until its connection's close is noticed
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        CompoundResult made;
        do {
            made = it.nfs().run(new CompoundBuilder().putrootfh().mkdir(dirName).getfh());
        } while (made.status() == NfsStatus.DELAY && System.nanoTime() < deadline && pause());
        dir = made.orThrow().fileHandle();
    }

    @AfterEach
    void close() throws IOException {
        it.close();
        other.close();
    }

    private static boolean pause() {
        try {
            Thread.sleep(100);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** One compound that overwrites the existing {@code name} in {@code in} with {@code data}. */
    private CompoundBuilder writeFile(Nfs41Session session, byte[] in, String name, byte[] data) {
        return new CompoundBuilder().putfh(in)
                .openExisting(session.clientId(), ("o-" + name).getBytes(StandardCharsets.UTF_8), name,
                        OPEN4args.OPEN4_SHARE_ACCESS_BOTH)
                .write(CompoundBuilder.currentStateid(), 0, data)
                .close(CompoundBuilder.currentStateid());
    }

    private Path local(String name) {
        return server.exportDir().resolve(dirName).resolve(name);
    }

    private SpanningTransaction begin(Nfs41Session session, long ticket) throws IOException {
        SpanningTransaction txn = session.beginTransaction(ticket);
        assertThat(NfsStatus.of(txn.beginStatus())).isEqualTo(NfsStatus.OK);
        return txn;
    }

    /** One compound that creates {@code name} in {@code dir} with {@code data}: OPEN, WRITE, CLOSE. */
    private CompoundBuilder createFile(Nfs41Session session, byte[] in, String name, byte[] data) {
        return new CompoundBuilder().putfh(in)
                .openCreate(session.clientId(), ("o-" + name).getBytes(StandardCharsets.UTF_8), name,
                        OPEN4args.OPEN4_SHARE_ACCESS_BOTH, Attrs.builder().size(0).mode(0644).build())
                .write(CompoundBuilder.currentStateid(), 0, data)
                .close(CompoundBuilder.currentStateid());
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void compoundsOfATransactionCommitTogetherAndOthersSeeNothingBefore() throws IOException {
        SpanningTransaction txn = begin(it.session(), 0);
        CompoundResult made = txn.execute(new CompoundBuilder().putfh(dir).mkdir("sub").getfh());
        assertThat(made.status()).isEqualTo(NfsStatus.OK);
        byte[] sub = made.fileHandle();
        assertThat(txn.execute(createFile(it.session(), sub, "a", text("alpha"))).status()).isEqualTo(NfsStatus.OK);
        // a later compound of the transaction sees the handles and names an earlier one made
        assertThat(txn.execute(new CompoundBuilder().putfh(dir).lookup("sub").lookup("a").getfh()).status())
                .isEqualTo(NfsStatus.OK);
        assertThat(txn.execute(createFile(it.session(), sub, "b", text("beta"))).status()).isEqualTo(NfsStatus.OK);

        // isolation: another client sees neither the directory nor its files before the commit
        CompoundResult seen = other.nfs().run(new CompoundBuilder().putfh(dir).lookup("sub").getfh());
        assertThat(seen.status()).isIn(NfsStatus.NOENT, NfsStatus.DELAY);
        CompoundResult listed = other.nfs().run(new CompoundBuilder().putfh(dir).readdir(8192));
        if (listed.status() == NfsStatus.OK) {
            assertThat(other.nfs().readdirNames(dir)).doesNotContain("sub");
        } else {
            assertThat(listed.status()).isEqualTo(NfsStatus.DELAY);
        }

        assertThat(NfsStatus.of(txn.commit())).isEqualTo(NfsStatus.OK);

        byte[] a = other.nfs().lookup(other.nfs().lookup(dir, "sub"), "a");
        assertThat(new String(other.nfs().read(a), StandardCharsets.UTF_8)).isEqualTo("alpha");
        assertThat(local("sub/b")).hasContent("beta");
        // the handle the transaction's first compound returned stays valid after the commit
        assertThat(other.nfs().readdirNames(sub)).containsExactlyInAnyOrder("a", "b");
        // a second TXN_COMMIT on the connection is taken for a retry of the first (its reply may have been lost):
        // it gets the first one's outcome and commits nothing again; the ended transaction takes no more compounds
        assertThat(NfsStatus.of(txn.commit())).as("a second commit").isEqualTo(NfsStatus.OK);
        assertThat(txn.execute(new CompoundBuilder().putfh(dir).getfh()).status()).as("a compound after the commit")
                .isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(other.nfs().readdirNames(sub)).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void abortUndoesEveryCompoundAndEndsTheTransaction() throws IOException {
        it.nfs().createFile(dir, "kept", text("original"));
        SpanningTransaction txn = begin(it.session(), 0);
        assertThat(txn.execute(new CompoundBuilder().putfh(dir).mkdir("sub")).status()).isEqualTo(NfsStatus.OK);
        assertThat(txn.execute(createFile(it.session(), dir, "kept", text("overwritten!"))).status())
                .isEqualTo(NfsStatus.OK);
        assertThat(txn.execute(new CompoundBuilder().putfh(dir).remove("kept")).status()).isEqualTo(NfsStatus.OK);

        assertThat(NfsStatus.of(txn.abort())).isEqualTo(NfsStatus.OK);

        assertThat(local("sub")).doesNotExist();
        assertThat(local("kept")).hasContent("original");
        assertThat(txn.execute(new CompoundBuilder().putfh(dir).mkdir("late")).status())
                .isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(local("late")).doesNotExist();
        assertThat(it.nfs().readdirNames(dir)).containsExactly("kept");
    }

    @Test
    void aFailureInTheLastCompoundLeavesNothingOfTheEarlierOnes() throws IOException {
        it.nfs().createFile(dir, "kept", text("original"));
        SpanningTransaction txn = begin(it.session(), 0);
        for (int i = 0; i < 5; i++) {
            assertThat(txn.execute(createFile(it.session(), dir, "f" + i, text("file " + i))).status())
                    .isEqualTo(NfsStatus.OK);
        }
        assertThat(txn.execute(createFile(it.session(), dir, "kept", text("new content"))).status())
                .isEqualTo(NfsStatus.OK);
        CompoundResult last = txn.execute(new CompoundBuilder().putfh(dir).mkdir("d").remove("no-such-name"));

        assertThat(last.status()).isEqualTo(NfsStatus.NOENT);
        assertThat(it.nfs().readdirNames(dir)).containsExactly("kept");
        assertThat(local("kept")).hasContent("original");
        assertThat(NfsStatus.of(txn.commit())).as("commit after the failure").isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(it.nfs().readdirNames(dir)).containsExactly("kept");
    }

    @Test
    void transactionsThatWouldDeadlockEndWithOneDeadlockAndItsRetryCommits() throws Exception {
        byte[] a = it.nfs().createFile(dir, "a", text("a0"));
        byte[] b = it.nfs().createFile(dir, "b", text("b0"));
        SpanningTransaction older = begin(it.session(), 0);
        SpanningTransaction younger = begin(other.session(), 0);
        assertThat(older.ticket()).isLessThan(younger.ticket());
        assertThat(older.execute(writeFile(it.session(), dir, "a", text("a1"))).status()).isEqualTo(NfsStatus.OK);
        assertThat(younger.execute(writeFile(other.session(), dir, "b", text("b2"))).status())
                .isEqualTo(NfsStatus.OK);

        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            // the older one waits for b, which the younger one holds
            Future<CompoundResult> waiting = pool.submit(
                    () -> older.execute(writeFile(it.session(), dir, "b", text("b1"))));
            Thread.sleep(300);
            assertThat(waiting.isDone()).as("the older transaction waits").isFalse();
            // the younger one wants a, which the older one holds: it dies instead of waiting
            CompoundResult died = younger.execute(writeFile(other.session(), dir, "a", text("a2")));
            assertThat(died.status()).isEqualTo(NfsStatus.DEADLOCK);
            assertThat(waiting.get(20, TimeUnit.SECONDS).status()).isEqualTo(NfsStatus.OK);
        } finally {
            pool.shutdownNow();
        }
        assertThat(NfsStatus.of(younger.commit())).isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(NfsStatus.of(older.commit())).isEqualTo(NfsStatus.OK);
        assertThat(local("a")).hasContent("a1");
        assertThat(local("b")).hasContent("b1");

        // the client retries the whole transaction with its old ticket: it is now the oldest, and commits
        SpanningTransaction retry = begin(other.session(), younger.ticket());
        assertThat(retry.ticket()).isEqualTo(younger.ticket());
        assertThat(retry.execute(writeFile(other.session(), dir, "b", text("b2"))).status()).isEqualTo(NfsStatus.OK);
        assertThat(retry.execute(writeFile(other.session(), dir, "a", text("a2"))).status()).isEqualTo(NfsStatus.OK);
        assertThat(NfsStatus.of(retry.commit())).isEqualTo(NfsStatus.OK);
        assertThat(local("a")).hasContent("a2");
        assertThat(local("b")).hasContent("b2");
        assertThat(a).isNotNull();
        assertThat(b).isNotNull();
    }

    @Test
    void aPlainCompoundGetsDelayInsteadOfWaitingForATransactionsLocks() throws IOException {
        it.nfs().createFile(dir, "held", text("before"));
        SpanningTransaction txn = begin(it.session(), 0);
        assertThat(txn.execute(createFile(it.session(), dir, "held", text("during"))).status())
                .isEqualTo(NfsStatus.OK);
        long start = System.nanoTime();
        CompoundResult plain = other.nfs().run(createFile(other.session(), dir, "held", text("plain")));
        assertThat(plain.status()).isEqualTo(NfsStatus.DELAY);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        assertThat(NfsStatus.of(txn.commit())).isEqualTo(NfsStatus.OK);
        assertThat(other.nfs().run(createFile(other.session(), dir, "held", text("plain"))).status())
                .isEqualTo(NfsStatus.OK);
        assertThat(local("held")).hasContent("plain");
    }

    @Test
    void aLostConnectionRollsBackAndReleasesTheLocks() throws Exception {
        it.nfs().createFile(dir, "held", text("before"));
        ItSession lost = ItSession.open(server, "lost");
        SpanningTransaction txn = begin(lost.session(), 0);
        assertThat(txn.execute(createFile(lost.session(), dir, "held", text("during"))).status())
                .isEqualTo(NfsStatus.OK);
        assertThat(txn.execute(createFile(lost.session(), dir, "new", text("new"))).status()).isEqualTo(NfsStatus.OK);
        lost.connection().close();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        CompoundResult write;
        do {
            Thread.sleep(100);
            write = other.nfs().run(createFile(other.session(), dir, "held", text("after")));
        } while (write.status() == NfsStatus.DELAY && System.nanoTime() < deadline);
        assertThat(write.status()).as("the locks were released").isEqualTo(NfsStatus.OK);
        assertThat(local("new")).doesNotExist();
        assertThat(local("held")).hasContent("after");
    }

    @Test
    void anIdleTransactionIsRolledBackLikeAnExpiredLease() throws Exception {
        SpanningTransaction txn = begin(it.session(), 0);
        assertThat(txn.idleTimeoutMillis()).isEqualTo(1500);
        assertThat(txn.execute(createFile(it.session(), dir, "f", text("x"))).status()).isEqualTo(NfsStatus.OK);
        Thread.sleep(3000);
        assertThat(txn.execute(new CompoundBuilder().putfh(dir).mkdir("late")).status())
                .isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(it.nfs().readdirNames(dir)).isEmpty();
        assertThat(other.nfs().run(createFile(other.session(), dir, "f", text("y"))).status()).isEqualTo(NfsStatus.OK);
    }

    @Test
    void aCompoundPastTheByteCapIsRefusedBeforeItChangesAnything() throws IOException {
        it.nfs().createFile(dir, "kept", text("original"));
        SpanningTransaction txn = begin(it.session(), 0);
        assertThat(txn.maxBytes()).isEqualTo(MAX_BYTES);
        assertThat(txn.execute(createFile(it.session(), dir, "small", new byte[1 << 20])).status())
                .isEqualTo(NfsStatus.OK);
        assertThat(txn.execute(createFile(it.session(), dir, "kept", new byte[1 << 20])).status())
                .isEqualTo(NfsStatus.OK);
        CompoundResult refused = txn.execute(createFile(it.session(), dir, "big", new byte[(1 << 20) + 4096]));

        assertThat(refused.status()).isEqualTo(NfsStatus.NOSPC);
        assertThat(refused.results()).as("only SEQUENCE and the refused first operation").hasSize(2);
        assertThat(it.nfs().readdirNames(dir)).containsExactly("kept");
        assertThat(local("kept")).hasContent("original");
        assertThat(NfsStatus.of(txn.commit())).isEqualTo(NfsStatus.BAD_STATEID);
    }

    @Test
    void anUnknownTransactionIdIsBadStateidAndChangesNothing() throws IOException {
        byte[] forged = new byte[16];
        COMPOUND4args args = new CompoundBuilder().putfh(dir).mkdir("x").build();
        args.minorversion = 0;
        COMPOUND4res res = it.connection().txnCompound(forged, args, it.connection().credential());
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(NfsStatus.of(it.connection().txnCommit(forged))).isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(NfsStatus.of(it.connection().txnAbort(forged))).isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(local("x")).doesNotExist();
    }

    @Test
    void anotherConnectionCannotUseTheTransaction() throws IOException {
        SpanningTransaction txn = begin(it.session(), 0);
        assertThat(NfsStatus.of(other.connection().txnCommit(txn.id()))).isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(NfsStatus.of(other.connection().txnAbort(txn.id()))).isEqualTo(NfsStatus.BAD_STATEID);
        assertThat(NfsStatus.of(txn.abort())).isEqualTo(NfsStatus.OK);
    }

    @Test
    void beginPastMaxOpenTxnsIsDelayUntilOneEnds() throws IOException {
        List<SpanningTransaction> open = new java.util.ArrayList<>();
        for (int i = 0; i < MAX_OPEN; i++) {
            open.add(begin(it.session(), 0));
        }
        assertThat(NfsStatus.of(it.session().beginTransaction(0).beginStatus())).isEqualTo(NfsStatus.DELAY);
        assertThat(NfsStatus.of(open.get(0).abort())).isEqualTo(NfsStatus.OK);
        SpanningTransaction again = begin(it.session(), 0);
        assertThat(NfsStatus.of(again.abort())).isEqualTo(NfsStatus.OK);
        for (SpanningTransaction txn : open.subList(1, MAX_OPEN)) {
            assertThat(NfsStatus.of(txn.abort())).isEqualTo(NfsStatus.OK);
        }
    }
}
