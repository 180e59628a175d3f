package org.tcnfs.txn;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.NfsStatus;

/** What a retried TXN_COMMIT or TXN_ABORT is answered (docs/protocol.md, "Late replies"). */
class EndedTransactionsTest {
    private static final byte[] ID = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

    @Test
    void retriedCommitOnTheSameConnectionGetsTheFirstCommitsStatus() {
        EndedTransactions ended = new EndedTransactions(8);
        ended.record(ID, "conn-a", EndedTransactions.End.BY_COMMIT, NfsStatus.OK);

        assertThat(ended.answer(ID, "conn-a", EndedTransactions.End.BY_COMMIT)).contains(NfsStatus.OK);
    }

    @Test
    void retryOnAnotherConnectionOrOfTheOtherKindIsNotAnswered() {
        EndedTransactions ended = new EndedTransactions(8);
        ended.record(ID, "conn-a", EndedTransactions.End.BY_ROLLBACK, NfsStatus.OK);

        assertThat(ended.answer(ID, "conn-b", EndedTransactions.End.BY_ROLLBACK)).isEmpty();
        assertThat(ended.answer(ID, "conn-a", EndedTransactions.End.BY_COMMIT)).isEmpty();
        assertThat(ended.answer(null, "conn-a", EndedTransactions.End.BY_ROLLBACK)).isEmpty();
    }

    @Test
    void onlyTheNewestEndingsAreKept() {
        EndedTransactions ended = new EndedTransactions(2);
        for (byte i = 0; i < 3; i++) {
            byte[] id = ID.clone();
            id[0] = i;
            ended.record(id, "c", EndedTransactions.End.BY_COMMIT, NfsStatus.IO);
        }
        byte[] oldest = ID.clone();
        oldest[0] = 0;
        byte[] newest = ID.clone();
        newest[0] = 2;

        assertThat(ended.answer(oldest, "c", EndedTransactions.End.BY_COMMIT)).isEmpty();
        assertThat(ended.answer(newest, "c", EndedTransactions.End.BY_COMMIT)).contains(NfsStatus.IO);
    }
}
