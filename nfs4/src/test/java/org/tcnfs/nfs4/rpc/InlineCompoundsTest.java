package org.tcnfs.nfs4.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.nio.ByteBuffer;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.rpc.InlineCompounds.Kind;
import org.tcnfs.nfs4.xdr.COMMIT4args;
import org.tcnfs.nfs4.xdr.COMPOUND4args;
import org.tcnfs.nfs4.xdr.GETATTR4args;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.READ4args;
import org.tcnfs.nfs4.xdr.REMOVE4args;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.stateid4;

class InlineCompoundsTest {
    private static final int SMALL_RECORD = 300;

    @Test
    void aLookupAndGetattrOnlyRead() {
        assertThat(InlineCompounds.kind(compound(putfh(), op(OP_LOOKUP, new LOOKUP4args("a")), getattr()),
                SMALL_RECORD)).isEqualTo(Kind.READS);
    }

    @Test
    void aSmallReadOnlyReadsAndALargeOneGoesToAWorker() {
        assertThat(InlineCompounds.kind(compound(putfh(), read(4096)), SMALL_RECORD)).isEqualTo(Kind.READS);
        assertThat(InlineCompounds.kind(compound(putfh(), read(InlineCompounds.MAX_READ_BYTES + 1)), SMALL_RECORD))
                .isEqualTo(Kind.WORKER);
    }

    @Test
    void aRemoveAndAnUnstablePageWriteChangeWithoutFlushing() {
        assertThat(InlineCompounds.kind(compound(putfh(), op(OP_REMOVE, new REMOVE4args("f")), getattr()),
                SMALL_RECORD)).isEqualTo(Kind.CHANGES);
        assertThat(InlineCompounds.kind(compound(putfh(), write(stable_how4.UNSTABLE4, 4096)), SMALL_RECORD + 4096))
                .isEqualTo(Kind.CHANGES);
    }

    @Test
    void aStableWriteACommitAndAWriteOverEightKiBGoToAWorker() {
        assertThat(InlineCompounds.kind(compound(putfh(), write(stable_how4.FILE_SYNC4, 100)), SMALL_RECORD))
                .isEqualTo(Kind.WORKER);
        assertThat(InlineCompounds.kind(compound(putfh(), op(OP_COMMIT, new COMMIT4args(0, 0))), SMALL_RECORD))
                .isEqualTo(Kind.WORKER);
        assertThat(InlineCompounds.kind(compound(putfh(), write(stable_how4.UNSTABLE4, 4096),
                write(stable_how4.UNSTABLE4, 4097)), SMALL_RECORD + 8193)).isEqualTo(Kind.WORKER);
    }

    @Test
    void aChangeFoundByNameOrBesideLargeArgumentsGoesToAWorker() {
        assertThat(InlineCompounds.kind(compound(putfh(), op(OP_LOOKUP, new LOOKUP4args("d")),
                op(OP_REMOVE, new REMOVE4args("f"))), SMALL_RECORD)).isEqualTo(Kind.WORKER);
        assertThat(InlineCompounds.kind(compound(putfh(), op(OP_REMOVE, new REMOVE4args("f"))),
                InlineCompounds.MAX_RECORD_BYTES + 1)).isEqualTo(Kind.WORKER);
    }

    @Test
    void moreThanEightOperationsGoToAWorker() {
        nfs_argop4[] ops = new nfs_argop4[InlineCompounds.MAX_OPS + 1];
        ops[0] = putfh();
        for (int i = 1; i < ops.length; i++) {
            ops[i] = getattr();
        }
        assertThat(InlineCompounds.kind(compound(ops), SMALL_RECORD)).isEqualTo(Kind.WORKER);
    }

    @Test
    void aChangeTakesItsTurnOnlyWhileNoCompoundRunsInlineAndKeepsReadsOut() {
        InlineTurns turns = new InlineTurns();
        assertThat(turns.tryRead()).isTrue();
        assertThat(turns.tryChange()).isFalse();
        turns.endRead();
        assertThat(turns.tryChange()).isTrue();
        assertThat(turns.tryRead()).isFalse();
        assertThat(turns.tryChange()).isFalse();
        turns.endChange();
        assertThat(turns.tryRead()).isTrue();
    }

    private static COMPOUND4args compound(nfs_argop4... ops) {
        COMPOUND4args args = new COMPOUND4args();
        args.argarray = ops;
        return args;
    }

    private static nfs_argop4 op(int opnum, XdrAble args) {
        return new nfs_argop4(opnum, args);
    }

    private static nfs_argop4 putfh() {
        return op(OP_PUTFH, new PUTFH4args());
    }

    private static nfs_argop4 getattr() {
        return op(OP_GETATTR, new GETATTR4args());
    }

    private static nfs_argop4 read(int count) {
        return op(OP_READ, new READ4args(new stateid4(), 0, count));
    }

    private static nfs_argop4 write(int stable, int bytes) {
        return op(OP_WRITE, new WRITE4args(new stateid4(), 0, stable, ByteBuffer.allocate(bytes)));
    }
}
