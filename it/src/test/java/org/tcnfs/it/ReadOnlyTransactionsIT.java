package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs4_attr.FATTR4_SIZE;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.nfs_opnum4;

/**
 * A compound that carries the transaction flag and only reads (GETATTR, LOOKUP, READDIR, READ: what {@code ls -lR}
 * and {@code cat} send) has nothing to record, back up, sync or undo, and runs as a plain read: a quiet read without
 * plan or locks while no writer is about (issue 16, goal 2; docs/benchmarks.md, "Issue 16: fewer durable syncs per
 * transactional compound"). Through the wire, against the real server process and its metrics
 * ({@code tcnfs_txn_lock_quiet_reads_total}, {@code tcnfs_txn_commits_total}).
 */
class ReadOnlyTransactionsIT {
    private static final byte[] DATA = "some bytes".getBytes(StandardCharsets.UTF_8);

    private ServerProcess server;
    private ItSession it;

    @BeforeEach
    void start() throws IOException {
        server = ServerProcess.start();
        it = ItSession.open(server, "read-only-txn");
    }

    @AfterEach
    void stop() throws IOException {
        it.close();
        server.close();
    }

    private CompoundResult txn(CompoundBuilder ops) throws IOException {
        return it.session().executeTransaction(ops);
    }

    private double quietReads() throws IOException {
        return server.metric("tcnfs_txn_lock_quiet_reads_total");
    }

    private double commits() throws IOException {
        return server.metric("tcnfs_txn_commits_total");
    }

    @Test
    void aTransactionThatOnlyReadsRunsAsAQuietReadWithoutPlanLocksOrCommit() throws IOException {
        byte[] dir = it.nfs().mkdir(it.nfs().rootFh(), "d");
        byte[] file = it.nfs().createFile(dir, "f", DATA);
        double quiet = quietReads();
        double commits = commits();

        CompoundResult attrs = txn(new CompoundBuilder().putfh(file).getattr(FATTR4_SIZE)).orThrow();
        CompoundResult listed = txn(new CompoundBuilder().putfh(dir).readdir(4096, FATTR4_SIZE)).orThrow();
        CompoundResult looked = txn(new CompoundBuilder().putfh(dir).lookup("f").getfh().getattr(FATTR4_SIZE))
                .orThrow();
        CompoundResult missing = txn(new CompoundBuilder().putfh(dir).lookup("missing").getattr(FATTR4_SIZE));

        assertThat(attrs.statusOf(nfs_opnum4.OP_GETATTR)).isEqualTo(NfsStatus.OK);
        assertThat(listed.statusOf(nfs_opnum4.OP_READDIR)).isEqualTo(NfsStatus.OK);
        assertThat(looked.fileHandle()).isEqualTo(file);
        assertThat(missing.status()).isEqualTo(NfsStatus.NOENT);
        assertThat(quietReads() - quiet).as("quiet reads: one per read-only transactional compound").isEqualTo(4);
        assertThat(commits() - commits).as("no transaction committed for them").isZero();
        assertThat(it.nfs().read(file)).isEqualTo(DATA);
    }

    @Test
    void aTransactionThatReadsAndChangesStillRunsAsATransaction() throws IOException {
        byte[] dir = it.nfs().mkdir(it.nfs().rootFh(), "d");
        it.nfs().createFile(dir, "f", DATA);
        double quiet = quietReads();
        double commits = commits();

        CompoundResult failed = txn(new CompoundBuilder().putfh(dir).lookup("f").getattr(FATTR4_SIZE)
                .putfh(dir).mkdir("made").putfh(dir).lookup("missing"));

        assertThat(failed.status()).isEqualTo(NfsStatus.NOENT);
        assertThat(quietReads() - quiet).isZero();
        assertThat(commits() - commits).isZero();
        assertThat(it.nfs().readdirNames(dir)).as("the mkdir rolled back").containsExactly("f");
    }
}
