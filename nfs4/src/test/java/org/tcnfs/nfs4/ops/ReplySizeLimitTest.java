package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.ops.SessionHarness.*;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.attr.Bitmaps;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.CREATE_SESSION4resok;
import org.tcnfs.nfs4.xdr.EXCHANGE_ID4resok;
import org.tcnfs.nfs4.xdr.GETATTR4args;
import org.tcnfs.nfs4.xdr.channel_attrs4;
import org.tcnfs.nfs4.xdr.nfs4_attr;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.sessionid4;

/**
 * The reply of a compound is held to its session's ca_maxresponsesize, and to ca_maxresponsesize_cached
 * when SEQUENCE asks to cache it (RFC 8881 2.10.6.4, 18.46.3; pynfs CSESS26, CSESS27): the operation whose
 * result does not fit fails, and the compound ends there.
 */
class ReplySizeLimitTest {
    private final SessionHarness h = new SessionHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private sessionid4 session(int maxResponse, int maxResponseCached) throws Exception {
        EXCHANGE_ID4resok eid = h.exchangeId("linux-a", 1);
        channel_attrs4 fore = attrs(8192, maxResponse, 16, 4);
        fore.ca_maxresponsesize_cached = maxResponseCached;
        return body(h.compound(createSessionOp(eid.eir_clientid, eid.eir_sequenceid, fore)), 0,
                CREATE_SESSION4resok.class).csr_sessionid;
    }

    private static nfs_argop4 getattrOfManyAttributes() {
        return new nfs_argop4(nfs_opnum4.OP_GETATTR, new GETATTR4args(Bitmaps.of(nfs4_attr.FATTR4_SUPPORTED_ATTRS,
                nfs4_attr.FATTR4_TYPE, nfs4_attr.FATTR4_FH_EXPIRE_TYPE, nfs4_attr.FATTR4_CHANGE, nfs4_attr.FATTR4_SIZE,
                nfs4_attr.FATTR4_LINK_SUPPORT, nfs4_attr.FATTR4_SYMLINK_SUPPORT, nfs4_attr.FATTR4_NAMED_ATTR,
                nfs4_attr.FATTR4_FSID, nfs4_attr.FATTR4_UNIQUE_HANDLES, nfs4_attr.FATTR4_LEASE_TIME,
                nfs4_attr.FATTR4_FILEHANDLE)));
    }

    @Test
    void operationWhoseResultPassesMaxResponseSizeIsRepTooBigAndEndsTheCompound() throws Exception {
        sessionid4 sid = session(400, 400);

        COMPOUND4res res = h.compound(sequenceOp(sid, 1, 0, false), putRootOp(), getattrOfManyAttributes(),
                getattrOfManyAttributes(), getattrOfManyAttributes(), getattrOfManyAttributes());

        assertThat(status(res)).isEqualTo(NfsStatus.REP_TOO_BIG);
        int last = res.resarray.length - 1;
        assertThat(last).isBetween(2, 5);
        for (int i = 0; i < last; i++) {
            assertThat(NfsStatus.of(res.resarray[i].status)).isEqualTo(NfsStatus.OK);
        }
        assertThat(res.resarray[last].resop).isEqualTo(nfs_opnum4.OP_GETATTR);
    }

    @Test
    void replyWithinMaxResponseSizeIsUntouched() throws Exception {
        sessionid4 sid = session(400, 400);

        COMPOUND4res res = h.compound(sequenceOp(sid, 1, 0, false), putRootOp(), getattrOfManyAttributes());

        assertThat(status(res)).isEqualTo(NfsStatus.OK);
        assertThat(res.resarray).hasSize(3);
    }

    @Test
    void sequenceAskingToCacheAReplyOverMaxResponseSizeCachedIsRepTooBigToCache() throws Exception {
        sessionid4 sid = session(8192, 10);

        COMPOUND4res res = h.compound(sequenceOp(sid, 1, 0, true));

        assertThat(status(res)).isEqualTo(NfsStatus.REP_TOO_BIG_TO_CACHE);
        assertThat(res.resarray).hasSize(1);
    }

    @Test
    void replyOverMaxResponseSizeCachedIsSentWhenNotToBeCached() throws Exception {
        sessionid4 sid = session(8192, 10);

        COMPOUND4res res = h.compound(sequenceOp(sid, 1, 0, false), putRootOp(), getattrOfManyAttributes());

        assertThat(status(res)).isEqualTo(NfsStatus.OK);
    }
}
