package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.ops.Nfs40Harness.getfh;
import static org.tcnfs.nfs4.ops.Nfs40Harness.putfh;
import static org.tcnfs.nfs4.ops.Nfs40Harness.status;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETATTR;

import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.attr.Bitmaps;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.GETATTR4args;
import org.tcnfs.nfs4.xdr.GETATTR4resok;
import org.tcnfs.nfs4.xdr.nfs_argop4;

/**
 * Limits on NFSv4.0 requests: a compound longer than the server's operation limit is refused whole with
 * NFS4ERR_RESOURCE (RFC 7530 15.2; pynfs COMP6 grows a compound until it gets that answer), and a bitmap
 * naming an attribute far beyond the known ones still decodes (pynfs GATT4).
 */
class Nfs40CompoundLimitTest {
    private final Nfs40Harness h = new Nfs40Harness();

    @AfterEach
    void stop() {
        h.close();
    }

    private nfs_argop4[] putfhGetfhPairs(int pairs) {
        nfs_argop4[] ops = new nfs_argop4[2 * pairs];
        for (int i = 0; i < pairs; i++) {
            ops[2 * i] = putfh(h.root());
            ops[2 * i + 1] = getfh();
        }
        return ops;
    }

    @Test
    void compoundOfMoreOperationsThanTheLimitIsResourceAndRunsNone() throws Exception {
        int max = h.server.limits().maxOperations();
        nfs_argop4[] ops = Arrays.copyOf(putfhGetfhPairs(max / 2 + 1), max + 1);

        COMPOUND4res res = h.compound(ops);

        assertThat(status(res)).isEqualTo(NfsStatus.RESOURCE);
        assertThat(res.resarray).isEmpty();
    }

    @Test
    void getattrOfAnUnknownAttributeNumberedBeyondSixteenWordsIsAnsweredWithoutIt() throws Exception {
        COMPOUND4res res = h.compound(putfh(h.root()), Nfs40Harness.op(OP_GETATTR, new GETATTR4args(Bitmaps.of(1000))));

        assertThat(status(res)).isEqualTo(NfsStatus.OK);
        assertThat(Bitmaps.isEmpty(((GETATTR4resok) res.resarray[1].body).obj_attributes.attrmask)).isTrue();
    }

    @Test
    void compoundOfExactlyTheLimitRuns() throws Exception {
        int max = h.server.limits().maxOperations();

        COMPOUND4res res = h.compound(putfhGetfhPairs(max / 2));

        assertThat(status(res)).isEqualTo(NfsStatus.OK);
        assertThat(res.resarray).hasSize(max / 2 * 2);
    }
}
