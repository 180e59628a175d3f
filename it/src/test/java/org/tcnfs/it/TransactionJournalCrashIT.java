package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.nfs4.xdr.nfs4_attr;

/**
 * A crash of a server whose transaction made its recovery record, or its commit point, durable in the row journal
 * only (docs/durability.md, "The row journal"): the server halts right after the journal's flush, before any LMDB
 * commit carried the rows (the background flush waits a second), and the restart replays them before recovery reads
 * the records. A record replayed so is found and its half-done transaction undone; a commit point replayed so keeps
 * its transaction done, with nothing to undo and its new object's handle resolving.
 *
 * <p>The background flush waits {@value #LATE_DELAY_MS} ms here instead of a second ({@code
 * -Dtcnfs.test.late-delay-ms}), and the transaction starts right after the flush that committed the rows made before
 * it: so no background flush runs between the transaction's first journal record and the halt, however loaded the
 * machine (a test that slept a fixed time instead failed once when the transaction's record reached LMDB first).
 */
@Tag("crash")
class TransactionJournalCrashIT {
    private static final byte[] A = "contents of a".getBytes(StandardCharsets.UTF_8);
    private static final byte[] B = "contents of b".getBytes(StandardCharsets.UTF_8);

    private static final long LATE_DELAY_MS = 5_000;
    private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(60);

    private ServerProcess server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    /**
     * Starts a server armed to halt at {@code crashPoint}, makes directory d with files a and b, waits until the
     * background flush has committed their rows to LMDB, and at once sends the transaction SEQUENCE PUTFH(d) REMOVE(a) REMOVE(b)
     * MKDIR(n) (full path: more than one change) that halts the server; then restarts it unarmed.
     */
    private Path crashInTransaction(String crashPoint) throws Exception {
        server = HaltingTransaction.armedAt(crashPoint, List.of("-Dtcnfs.test.late-delay-ms=" + LATE_DELAY_MS));
        HaltingTransaction.halt(server, crashPoint, "txn-journal-crash", nfs -> {
            byte[] d = nfs.mkdir(nfs.rootFh(), "d");
            nfs.createFile(d, "a", A);
            nfs.createFile(d, "b", B);
            server.awaitNoPendingRows(FLUSH_TIMEOUT);
            return new CompoundBuilder().putfh(d).remove("a").remove("b").mkdir("n");
        });
        server.setJvmArgs();
        server.relaunch();
        assertThat(server.metric("tcnfs_row_journal_replayed_txn_record_rows"))
                .as("rows of recovery records the row journal's replay applied at the restart").isPositive();
        return server.exportDir().resolve("d");
    }

    @Test
    void aRecordOnlyTheRowJournalHeldIsReplayedAndItsHalfDoneTransactionUndoneAfterACrash() throws Exception {
        Path d = crashInTransaction("after-op-2"); // SEQUENCE 0, PUTFH 1, REMOVE(a) 2: a is gone, b not yet

        assertThat(server.metric("tcnfs_txn_recovered")).as("transactions recovery undid").isEqualTo(1);
        assertThat(Files.readAllBytes(d.resolve("a"))).as("a, put back").isEqualTo(A);
        assertThat(Files.readAllBytes(d.resolve("b"))).isEqualTo(B);
        assertThat(Files.exists(d.resolve("n"))).isFalse();
    }

    @Test
    void aCommitPointOnlyTheRowJournalHeldKeepsItsTransactionDoneAfterACrash() throws Exception {
        Path d = crashInTransaction("after-commit");

        assertThat(server.metric("tcnfs_txn_recovered")).as("transactions recovery undid").isZero();
        assertThat(Files.exists(d.resolve("a"))).isFalse();
        assertThat(Files.exists(d.resolve("b"))).isFalse();
        assertThat(Files.isDirectory(d.resolve("n"))).isTrue();
        try (ItSession it = ItSession.open(server, "txn-journal-crash-check")) {
            NfsOps nfs = it.nfs();
            byte[] dir = nfs.lookup(nfs.rootFh(), "d");
            byte[] n = nfs.lookup(dir, "n");
            assertThat(nfs.getattr(n, nfs4_attr.FATTR4_FILEID).fileid()).as("the new directory's handle")
                    .isEqualTo(((Number) Files.getAttribute(d.resolve("n"), "unix:ino")).longValue());
            assertThat(nfs.readdirNames(dir)).containsExactly("n");
        }
    }
}
