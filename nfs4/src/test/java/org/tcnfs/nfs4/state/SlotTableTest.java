package org.tcnfs.nfs4.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.status.RetryUncachedRepException;
import org.tcnfs.nfs4.status.SeqMisorderedException;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

class SlotTableTest {
    private static final long STALE = 60_000;
    private final SlotTable slots = new SlotTable(4);

    private static COMPOUND4res reply(int... ops) {
        COMPOUND4res res = new COMPOUND4res();
        res.resarray = new nfs_resop4[ops.length];
        for (int i = 0; i < ops.length; i++) {
            res.resarray[i] = new nfs_resop4(ops[i], 0, null);
        }
        return res;
    }

    @Test
    void retransmissionOfAReplyWithFileDataThatWasNotAskedToBeCachedIsRetryUncachedRep() throws Exception {
        slots.admit(0, 1, 3, SlotTable.ReplyCaching.DROP, 7L, 0, STALE);
        slots.complete(0, 1, reply(nfs_opnum4.OP_SEQUENCE, nfs_opnum4.OP_PUTFH, nfs_opnum4.OP_READ));

        assertThatThrownBy(() -> slots.admit(0, 1, 3, SlotTable.ReplyCaching.DROP, 7L, 1, STALE))
                .isInstanceOf(RetryUncachedRepException.class);
    }

    @Test
    void retransmissionOfAReplyWithoutBulkDataIsAnsweredFromTheSlot() throws Exception {
        COMPOUND4res first = reply(nfs_opnum4.OP_SEQUENCE, nfs_opnum4.OP_PUTFH, nfs_opnum4.OP_GETATTR);
        slots.admit(1, 1, 3, SlotTable.ReplyCaching.DROP, 7L, 0, STALE);
        slots.complete(1, 1, first);

        SlotTable.Admission again = slots.admit(1, 1, 3, SlotTable.ReplyCaching.DROP, 7L, 1, STALE);

        assertThat(again).isInstanceOf(SlotTable.Retransmission.class);
        assertThat(((SlotTable.Retransmission) again).reply()).isSameAs(first);
    }

    @Test
    void aDifferentRequestWithTheLastSequenceIdRunsAsNewInsteadOfGettingAnotherRequestsReply() throws Exception {
        slots.admit(2, 1, 3, SlotTable.ReplyCaching.KEEP, 7L, 0, STALE);
        slots.complete(2, 1, reply(nfs_opnum4.OP_SEQUENCE));

        assertThat(slots.admit(2, 1, 3, SlotTable.ReplyCaching.KEEP, 8L, 1, STALE))
                .isInstanceOf(SlotTable.NewRequest.class);
        COMPOUND4res second = reply(nfs_opnum4.OP_SEQUENCE, nfs_opnum4.OP_GETATTR);
        slots.complete(2, 1, second);
        SlotTable.Admission retransmission = slots.admit(2, 1, 3, SlotTable.ReplyCaching.KEEP, 8L, 2, STALE);
        assertThat(((SlotTable.Retransmission) retransmission).reply()).isSameAs(second);
    }

    @Test
    void skippingASequenceIdIsMisordered() throws Exception {
        slots.admit(3, 1, 3, SlotTable.ReplyCaching.KEEP, 7L, 0, STALE);
        slots.complete(3, 1, reply(nfs_opnum4.OP_SEQUENCE));

        assertThatThrownBy(() -> slots.admit(3, 3, 3, SlotTable.ReplyCaching.KEEP, 9L, 1, STALE))
                .isInstanceOf(SeqMisorderedException.class);
    }
}
