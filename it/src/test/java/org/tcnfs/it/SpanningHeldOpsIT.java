package org.tcnfs.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.CompoundResult;
import org.tcnfs.client.Nfs41Session.SpanningTransaction;
import org.tcnfs.nfs4.status.NfsStatus;

/**
 * The server bounds what all open transactions that span compounds keep (issue 15; setting {@code txn-held-ops},
 * docs/protocol.md "Server memory"): the operations of their compounds together. Here the bound is
 * {@value #HELD_OPS} operations: a compound that would pass it while another transaction holds operations gets
 * NFS4ERR_DELAY before it changes anything and its transaction is rolled back; once the other one committed, the
 * same work begun again commits; a compound whose transaction alone would pass the bound gets NFS4ERR_NOSPC. On the
 * old server nothing bounded them (the second transaction's compound ran).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpanningHeldOpsIT {
    private static final int HELD_OPS = 60;

    private ServerProcess server;

    @BeforeAll
    void start() throws IOException {
        server = ServerProcess.startIn(ServerProcess.defaultWorkDirectory(), List.of(), "--txn-held-ops",
                Integer.toString(HELD_OPS));
    }

    @AfterAll
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    /** PUTFH dir, MKDIR name-i, {@code dirs} times: 2 x dirs operations, plus SEQUENCE. */
    private static CompoundBuilder mkdirs(byte[] dir, String prefix, int dirs) {
        CompoundBuilder b = new CompoundBuilder();
        for (int i = 0; i < dirs; i++) {
            b.putfh(dir).mkdir(prefix + i);
        }
        return b;
    }

    private static SpanningTransaction begin(ItSession s) throws IOException {
        SpanningTransaction txn = s.session().beginTransaction(0);
        assertThat(NfsStatus.of(txn.beginStatus())).isEqualTo(NfsStatus.OK);
        return txn;
    }

    @Test
    void aCompoundThatWouldPassTheHeldOperationsOfAllOpenTransactionsGetsDelayAndItsTransactionEnds()
            throws IOException {
        try (ItSession first = ItSession.open(server, "held-a"); ItSession second = ItSession.open(server, "held-b")) {
            // each in its own directory: they share no lock but the root's READ
            byte[] dirA = first.nfs().mkdir(first.nfs().rootFh(), "held-a");
            byte[] dirB = first.nfs().mkdir(first.nfs().rootFh(), "held-b");
            SpanningTransaction a = begin(first);
            assertThat(a.execute(mkdirs(dirA, "a", 20)).status()).isEqualTo(NfsStatus.OK); // 41 operations
            assertThat(server.metric("tcnfs_txn_spanning_held_ops")).isEqualTo(41);

            SpanningTransaction b = begin(second);
            assertThat(b.execute(mkdirs(dirB, "b", 1)).status()).isEqualTo(NfsStatus.OK); // 3: 44 in all
            CompoundResult refused = b.execute(mkdirs(dirB, "c", 10)); // 21 more: 65 > 60
            assertThat(refused.status()).isEqualTo(NfsStatus.DELAY);
            assertThat(refused.response().resarray).as("refused at the first operation after SEQUENCE").hasSize(2);
            assertThat(NfsStatus.of(b.commit())).as("its transaction was rolled back").isEqualTo(NfsStatus.BAD_STATEID);
            assertThat(server.metric("tcnfs_txn_spanning_held_ops")).as("b gave its operations back").isEqualTo(41);
            assertThat(server.metric("tcnfs_txn_spanning_held_ops_refusals_total")).isEqualTo(1);

            assertThat(NfsStatus.of(a.commit())).isEqualTo(NfsStatus.OK);
            assertThat(server.metric("tcnfs_txn_spanning_held_ops")).isZero();

            // the same work begun again fits now
            SpanningTransaction again = begin(second);
            assertThat(again.execute(mkdirs(dirB, "b", 1)).status()).isEqualTo(NfsStatus.OK);
            assertThat(again.execute(mkdirs(dirB, "c", 10)).status()).isEqualTo(NfsStatus.OK);
            assertThat(NfsStatus.of(again.commit())).isEqualTo(NfsStatus.OK);
            assertThat(first.nfs().readdirNames(dirA)).hasSize(20).contains("a19");
            assertThat(first.nfs().readdirNames(dirB)).hasSize(1 + 10).contains("b0", "c9");

            // a transaction that alone would pass the bound can never fit: NFS4ERR_NOSPC
            SpanningTransaction huge = begin(first);
            CompoundResult tooBig = huge.execute(mkdirs(dirA, "h", 30)); // 61 operations
            assertThat(tooBig.status()).isEqualTo(NfsStatus.NOSPC);
            assertThat(NfsStatus.of(huge.commit())).isEqualTo(NfsStatus.BAD_STATEID);
            assertThat(first.nfs().readdirNames(dirA)).hasSize(20);
            assertThat(server.metric("tcnfs_txn_spanning_held_ops")).isZero();
        }
    }
}
