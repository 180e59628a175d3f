package org.tcnfs.nfs4.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_CREATE;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_GETATTR;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_PUTFH;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.OP_READ;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

class ReplyCacheTest {
    private static final InetSocketAddress CLIENT = new InetSocketAddress("192.0.2.7", 801);
    private static final int PROC = 1;

    private final AtomicLong now = new AtomicLong(1_000);
    private final ReplyCache cache = new ReplyCache(now::get);

    private static COMPOUND4args compound(int minorVersion, int... ops) {
        COMPOUND4args args = new COMPOUND4args();
        args.minorversion = minorVersion;
        args.argarray = new nfs_argop4[ops.length];
        for (int i = 0; i < ops.length; i++) {
            args.argarray[i] = new nfs_argop4();
            args.argarray[i].argop = ops[i];
        }
        return args;
    }

    private static COMPOUND4res reply(int ops) {
        COMPOUND4res res = new COMPOUND4res();
        res.resarray = new nfs_resop4[ops];
        return res;
    }

    private static ReplyCache.Key key(int xid) {
        return new ReplyCache.Key(CLIENT, xid);
    }

    @Test
    void onlyVersionZeroCompoundsThatChangeAndCarryNoDataAreKept() {
        assertThat(ReplyCache.keeps(compound(0, OP_PUTFH, OP_CREATE, OP_GETATTR))).isTrue();
        assertThat(ReplyCache.keeps(compound(0, OP_PUTFH, OP_GETATTR))).as("reads only").isFalse();
        assertThat(ReplyCache.keeps(compound(1, OP_PUTFH, OP_CREATE))).as("4.1 has its slots").isFalse();
        assertThat(ReplyCache.keeps(compound(0, OP_PUTFH, OP_CREATE, OP_READ))).as("a READ's data").isFalse();
    }

    @Test
    void theSameCallAgainGetsTheKeptReply() {
        COMPOUND4res first = reply(2);
        assertThat(cache.begin(key(7), PROC, 42).verdict()).isEqualTo(ReplyCache.Verdict.RUN);
        cache.finish(key(7), 42, first);

        ReplyCache.Lookup again = cache.begin(key(7), PROC, 42);

        assertThat(again.verdict()).isEqualTo(ReplyCache.Verdict.REPLAY);
        assertThat(again.reply()).isSameAs(first);
        assertThat(cache.replays()).isEqualTo(1);
    }

    @Test
    void aCopyOfARunningCallIsDropped() {
        cache.begin(key(7), PROC, 42);

        assertThat(cache.begin(key(7), PROC, 42).verdict()).isEqualTo(ReplyCache.Verdict.DROP);
    }

    @Test
    void anotherCallWithTheSameXidRunsAndReplacesTheKeptReply() {
        cache.begin(key(7), PROC, 42);
        cache.finish(key(7), 42, reply(1));

        assertThat(cache.begin(key(7), PROC, 43).verdict()).isEqualTo(ReplyCache.Verdict.RUN);
        cache.finish(key(7), 43, reply(1));
        assertThat(cache.begin(key(7), PROC, 42).verdict()).as("the first call, sent after the second")
                .isEqualTo(ReplyCache.Verdict.RUN);
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void theSameXidFromAnotherPortIsAnotherCall() {
        cache.begin(key(7), PROC, 42);
        cache.finish(key(7), 42, reply(1));

        ReplyCache.Key otherPort = new ReplyCache.Key(new InetSocketAddress("192.0.2.7", 802), 7);
        assertThat(cache.begin(otherPort, PROC, 42).verdict()).isEqualTo(ReplyCache.Verdict.RUN);
    }

    @Test
    void anAbandonedCallRunsWhenSentAgain() {
        cache.begin(key(7), PROC, 42);
        cache.abandon(key(7), 42);

        assertThat(cache.begin(key(7), PROC, 42).verdict()).isEqualTo(ReplyCache.Verdict.RUN);
    }

    @Test
    void aReplyOlderThanTheTtlIsForgotten() {
        cache.begin(key(7), PROC, 42);
        cache.finish(key(7), 42, reply(1));
        now.addAndGet(ReplyCache.TTL_NANOS + 1);

        assertThat(cache.begin(key(8), PROC, 1).verdict()).isEqualTo(ReplyCache.Verdict.RUN);
        assertThat(cache.size()).as("the old reply expired, the new call is kept").isEqualTo(1);
        assertThat(cache.begin(key(7), PROC, 42).verdict()).isEqualTo(ReplyCache.Verdict.RUN);
    }

    @Test
    void theCacheKeepsAtMostItsEntriesAndOperations() {
        for (int xid = 0; xid < ReplyCache.MAX_ENTRIES + 100; xid++) {
            cache.begin(key(xid), PROC, xid);
            cache.finish(key(xid), xid, reply(1));
        }
        assertThat(cache.size()).isEqualTo(ReplyCache.MAX_ENTRIES);
        assertThat(cache.begin(key(0), PROC, 0).verdict()).as("the least recently used went first")
                .isEqualTo(ReplyCache.Verdict.RUN);

        int big = ReplyCache.MAX_OPS_PER_REPLY;
        for (int xid = 0; xid < 2 * ReplyCache.MAX_OPS / big; xid++) {
            cache.begin(key(100_000 + xid), PROC, xid);
            cache.finish(key(100_000 + xid), xid, reply(big));
        }
        assertThat(cache.size()).as("replies of %s operations", big)
                .isLessThanOrEqualTo(ReplyCache.MAX_OPS / big + 1);
    }
}
