package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.it.CliRunner.tcnfs;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.Nfs41Session;
import org.tcnfs.client.rpc.AuthSys;
import org.tcnfs.client.rpc.NfsConnection;
import org.tcnfs.client.vector.LateReplyException;
import org.tcnfs.client.vector.Outcome;
import org.tcnfs.client.vector.TxnItem;
import org.tcnfs.client.vector.VMkdir;
import org.tcnfs.client.vector.VRemove;
import org.tcnfs.client.vector.VResult;
import org.tcnfs.client.vector.VWrite;
import org.tcnfs.client.vector.VnfsClient;
import org.tcnfs.it.CliRunner.Run;
import org.tcnfs.nfs4.status.NfsStatus;

/**
 * A commit or rollback that takes longer than the client's per-call timeout is reported with its true outcome,
 * never as a lost connection: the client keeps waiting for the reply while the server answers a retry of the same
 * request with NFS4ERR_DELAY (RFC 8881 2.10.6.2 for compounds; docs/protocol.md for TXN_COMMIT and TXN_ABORT), up to
 * its longest wait, and a retried TXN_COMMIT or TXN_ABORT gets the answer of the first one. The server here makes
 * every commit and rollback of a transaction that spans compounds take {@value #END_DELAY_MS} ms (test-only
 * property {@code tcnfs.test.txn-end-delay-ms}); the clients time out after {@value #TIMEOUT_S} s. It allows 64
 * operations per compound, so a few dozen items need several compounds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LateReplyIT {
    private static final int END_DELAY_MS = 8000;
    private static final int TIMEOUT_S = 2;

    private ServerProcess server;

    @BeforeAll
    void start() throws IOException {
        server = ServerProcess.startIn(ServerProcess.defaultWorkDirectory(),
                List.of("-Dtcnfs.test.txn-end-delay-ms=" + END_DELAY_MS), "--max-ops", "64");
    }

    @AfterAll
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private VnfsClient connect(Duration timeout, Duration maxWait) throws IOException {
        return VnfsClient.builder().host("127.0.0.1").port(server.port()).export("/").timeout(timeout)
                .maxWait(maxWait).connect();
    }

    private VnfsClient connect() throws IOException {
        return VnfsClient.builder().host("127.0.0.1").port(server.port()).export("/")
                .timeout(Duration.ofSeconds(TIMEOUT_S)).connect();
    }

    private static List<TxnItem> tree(String root, int files) {
        List<TxnItem> items = new ArrayList<>();
        items.add(new VMkdir(root));
        for (int i = 0; i < files; i++) {
            items.add(VWrite.create(root + "/f" + i, ("file " + i).getBytes(StandardCharsets.UTF_8)));
        }
        return items;
    }

    @Test
    void commitSlowerThanTheTimeoutIsReportedCommitted() throws IOException {
        try (VnfsClient nfs = connect()) {
            long started = System.nanoTime();
            VResult<Void> r = nfs.vtxn(tree("slow-commit", 80));

            assertThat(r.committed()).isTrue();
            assertThat(r.compounds()).as("compounds sent").isGreaterThan(2);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThan(Duration.ofMillis(END_DELAY_MS));
        }
        assertThat(server.exportDir().resolve("slow-commit/f79")).hasContent("file 79");
    }

    @Test
    void rollbackSlowerThanTheTimeoutIsReportedAsTheFailureThatCausedIt() throws IOException {
        List<TxnItem> items = tree("slow-rollback", 80);
        items.add(new VRemove("slow-rollback/no-such-file"));
        try (VnfsClient nfs = connect()) {
            VResult<Void> r = nfs.vtxn(items);

            assertThat(r.committed()).isFalse();
            assertThat(r.firstFailure()).isEqualTo(items.size() - 1);
            assertThat(r.item(items.size() - 1).status()).isEqualTo(NfsStatus.NOENT);
            assertThat(r.item(0).outcome()).isEqualTo(Outcome.UNDONE);
        }
        assertThat(server.exportDir().resolve("slow-rollback")).doesNotExist();
    }

    @Test
    void clientThatStopsWaitingSaysTheCommitsOutcomeIsUnknownNotThatTheConnectionWasLost() throws Exception {
        // directories only: compounds that are quick even on a loaded machine, then a commit that outlasts the wait
        List<TxnItem> items = new ArrayList<>(List.of(new VMkdir("gave-up")));
        for (int i = 0; i < 70; i++) {
            items.add(new VMkdir("gave-up/d" + i));
        }
        try (VnfsClient nfs = connect(Duration.ofSeconds(TIMEOUT_S), Duration.ofSeconds(5))) {
            assertThatThrownBy(() -> nfs.vtxn(items))
                    .isInstanceOfSatisfying(LateReplyException.class, e -> {
                        assertThat(e.outcome()).as(e.getMessage())
                                .isEqualTo(LateReplyException.Known.COMMITTED_OR_NOTHING);
                        assertThat(e.getMessage()).contains("did not answer TXN_COMMIT")
                                .contains("it either committed whole or changed nothing");
                    });
        }
        // the server finishes the commit it was working on: whole
        awaitNoOpenTransaction();
        assertThat(server.exportDir().resolve("gave-up/d69")).isDirectory();
    }

    /**
     * Waits until no transaction that spans compounds is open (metric {@code tcnfs_txn_spanning_open}): one the
     * client stopped waiting for has ended. Until then it holds its locks (its parent directories included), which
     * the transactions of the next test would wait for.
     */
    private void awaitNoOpenTransaction() throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (server.metric("tcnfs_txn_spanning_open") > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        assertThat(server.metric("tcnfs_txn_spanning_open")).isZero();
    }

    @Test
    void retriedTxnCommitGetsDelayWhileTheCommitRunsAndItsOutcomeAfter() throws Exception {
        // a connection that does not wait past its timeout: the first TXN_COMMIT's reply is late
        try (NfsConnection c = NfsConnection.connect(server.address(), AuthSys.ROOT, Duration.ofSeconds(TIMEOUT_S));
                Nfs41Session session = Nfs41Session.create(c, "late-commit")) {
            Nfs41Session.SpanningTransaction txn = session.beginTransaction(0);
            assertThat(NfsStatus.of(txn.beginStatus())).isEqualTo(NfsStatus.OK);
            assertThat(txn.execute(new CompoundBuilder().putrootfh().mkdir("retried-commit"))
                    .isOk()).isTrue();

            assertThatThrownBy(() -> c.txnCommit(txn.id())).isInstanceOf(SocketTimeoutException.class);
            assertThat(NfsStatus.of(c.txnCommit(txn.id()))).as("a retry while the commit runs")
                    .isEqualTo(NfsStatus.DELAY);
            Thread.sleep(END_DELAY_MS);
            assertThat(NfsStatus.of(c.txnCommit(txn.id()))).as("a retry after it committed").isEqualTo(NfsStatus.OK);
            assertThat(NfsStatus.of(c.txnAbort(txn.id()))).as("TXN_ABORT of the committed transaction")
                    .isEqualTo(NfsStatus.BAD_STATEID);
        }
        assertThat(server.exportDir().resolve("retried-commit")).isDirectory();
    }

    @Test
    void txnAbortSlowerThanTheTimeoutAnswersOk() throws IOException {
        try (NfsConnection c = NfsConnection.connect(server.address(), AuthSys.ROOT, Duration.ofSeconds(TIMEOUT_S),
                Duration.ofSeconds(30)); Nfs41Session session = Nfs41Session.create(c, "late-abort")) {
            Nfs41Session.SpanningTransaction txn = session.beginTransaction(0);
            assertThat(txn.execute(new CompoundBuilder().putrootfh().mkdir("aborted-late"))
                    .isOk()).isTrue();

            assertThat(NfsStatus.of(txn.abort())).isEqualTo(NfsStatus.OK);
            assertThat(NfsStatus.of(txn.abort())).as("TXN_ABORT again").isEqualTo(NfsStatus.OK);
            assertThat(NfsStatus.of(txn.commit())).as("TXN_COMMIT of the rolled back transaction")
                    .isEqualTo(NfsStatus.BAD_STATEID);
        }
        assertThat(server.exportDir().resolve("aborted-late")).doesNotExist();
    }

    @Test
    void cliReportsTheTrueOutcomeOfASlowAtomicWrite() throws IOException {
        Path dir = Files.createTempDirectory(ServerProcess.defaultWorkDirectory(), "late-reply-cli-");
        try {
            List<String> args = new ArrayList<>(List.of("put", "--txn", "--timeout", String.valueOf(TIMEOUT_S)));
            for (int i = 0; i < 80; i++) {
                Path f = dir.resolve("c" + i);
                Files.writeString(f, "cli " + i);
                args.add(f.toString());
            }
            String url = "nfs://127.0.0.1:" + server.port() + "/";
            Run mkdir = tcnfs("mkdir", url + "cli-late");
            assertThat(mkdir.status()).as(mkdir.err()).isZero();
            args.add(url + "cli-late/");

            Run put = tcnfs(args.toArray(new String[0]));

            assertThat(put.status()).as(put.err()).isZero();
            assertThat(server.exportDir().resolve("cli-late/c79")).hasContent("cli 79");

            args.add(2, "--max-wait");
            args.add(3, "5");
            args.set(args.size() - 1, url + "cli-late-gave-up/");
            assertThat(tcnfs("mkdir", url + "cli-late-gave-up").status()).isZero();
            Run gaveUp = tcnfs(args.toArray(new String[0]));

            assertThat(gaveUp.status()).as(gaveUp.err()).isEqualTo(7);
            assertThat(gaveUp.err()).contains("either committed whole or changed nothing")
                    .doesNotContainIgnoringCase("lost connection");
            // the server finishes that commit (whole); the next test's transaction must not wait for its locks
            awaitNoOpenTransaction();
            assertThat(server.exportDir().resolve("cli-late-gave-up/c79")).hasContent("cli 79");
        } finally {
            ServerProcess.deleteTree(dir);
        }
    }
}
