package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.ops.DataOpsHarness.statusOf;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.COMMIT4args;
import org.tcnfs.nfs4.xdr.COMMIT4resok;
import org.tcnfs.nfs4.xdr.READ4args;
import org.tcnfs.nfs4.xdr.READ4resok;
import org.tcnfs.nfs4.xdr.WRITE4args;
import org.tcnfs.nfs4.xdr.WRITE4resok;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.stable_how4;
import org.tcnfs.nfs4.xdr.stateid4;

class ReadWriteOpsTest {
    private static final Credential ALICE = new Credential(1000, 100, new int[0]);

    private final DataOpsHarness h = new DataOpsHarness();

    private Inode file() throws IOException {
        return h.fs.create(h.fs.getRootInode(), "f", ALICE, 0644);
    }

    private nfs_resop4 write(long offset, String text, int stable) throws IOException {
        return h.run(OP_WRITE, new WRITE4args(new stateid4(), offset, stable,
                ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8))));
    }

    private nfs_resop4 read(long offset, int count) throws IOException {
        return h.run(OP_READ, new READ4args(new stateid4(), offset, count));
    }

    private static String text(nfs_resop4 r) {
        ByteBuffer data = ((READ4resok) r.body).data;
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static boolean eof(nfs_resop4 r) {
        return ((READ4resok) r.body).eof;
    }

    @Test
    void writtenBytesReadBack() throws IOException {
        h.at(file());
        nfs_resop4 w = write(0, "hello world", stable_how4.UNSTABLE4);
        assertThat(statusOf(w)).isEqualTo(NfsStatus.OK);
        assertThat(((WRITE4resok) w.body).count).isEqualTo(11);
        nfs_resop4 r = read(0, 100);
        assertThat(statusOf(r)).isEqualTo(NfsStatus.OK);
        assertThat(text(r)).isEqualTo("hello world");
        assertThat(eof(r)).isTrue();
    }

    @Test
    void readInTheMiddleIsNotEof() throws IOException {
        h.at(file());
        write(0, "0123456789", stable_how4.FILE_SYNC4);
        nfs_resop4 r = read(2, 3);
        assertThat(text(r)).isEqualTo("234");
        assertThat(eof(r)).isFalse();
        nfs_resop4 tail = read(7, 3);
        assertThat(text(tail)).isEqualTo("789");
        assertThat(eof(tail)).isTrue();
    }

    @Test
    void readAtOrPastEofIsEmptyAndEof() throws IOException {
        h.at(file());
        write(0, "abc", stable_how4.FILE_SYNC4);
        for (long offset : new long[] {3, 4, 1L << 40, -1L}) {
            nfs_resop4 r = read(offset, 10);
            assertThat(statusOf(r)).isEqualTo(NfsStatus.OK);
            assertThat(text(r)).as("offset %d", offset).isEmpty();
            assertThat(eof(r)).as("offset %d", offset).isTrue();
        }
    }

    @Test
    void readOfZeroBytesBeforeEofIsNotEof() throws IOException {
        h.at(file());
        write(0, "abc", stable_how4.FILE_SYNC4);
        nfs_resop4 r = read(0, 0);
        assertThat(text(r)).isEmpty();
        assertThat(eof(r)).isFalse();
    }

    @Test
    void writePastEofLeavesAZeroFilledHole() throws IOException {
        h.at(file());
        write(5, "xy", stable_how4.FILE_SYNC4);
        assertThat(h.fs.getattr(h.context.currentInode()).size()).isEqualTo(7);
        nfs_resop4 r = read(0, 100);
        assertThat(text(r)).isEqualTo("\0\0\0\0\0xy");
    }

    @Test
    void readIsCappedAtMaxRead() throws IOException {
        NfsLimits limits = new NfsLimits(64, 1 << 20, 1 << 20, 4096, 4096, 4, Duration.ofSeconds(90),
                Duration.ofSeconds(90));
        DataOpsHarness small = new DataOpsHarness(limits);
        Inode f = small.fs.create(small.fs.getRootInode(), "big", ALICE, 0644);
        small.at(f).run(OP_WRITE, new WRITE4args(new stateid4(), 0, stable_how4.FILE_SYNC4,
                ByteBuffer.allocate(10_000)));
        nfs_resop4 r = small.run(OP_READ, new READ4args(new stateid4(), 0, 10_000));
        assertThat(((READ4resok) r.body).data.remaining()).isEqualTo(4096);
        assertThat(((READ4resok) r.body).eof).isFalse();
    }

    @Test
    void writeAnswersAtLeastTheAskedStabilityAndTheBootVerifier() throws IOException {
        h.at(file());
        for (int stable : new int[] {stable_how4.UNSTABLE4, stable_how4.DATA_SYNC4, stable_how4.FILE_SYNC4}) {
            WRITE4resok ok = (WRITE4resok) write(0, "data", stable).body;
            assertThat(ok.committed).isGreaterThanOrEqualTo(stable);
            assertThat(ok.writeverf.value).isEqualTo(h.server.bootVerifier());
        }
    }

    @Test
    void writeWithAnUnknownStabilityIsBadXdr() throws IOException {
        h.at(file());
        assertThat(statusOf(write(0, "x", 3))).isEqualTo(NfsStatus.BADXDR);
    }

    @Test
    void writeOfNoBytesChangesNothing() throws IOException {
        Inode f = file();
        long change = h.fs.getattr(f).change();
        h.at(f);
        nfs_resop4 w = write(100, "", stable_how4.UNSTABLE4);
        assertThat(statusOf(w)).isEqualTo(NfsStatus.OK);
        assertThat(((WRITE4resok) w.body).count).isZero();
        assertThat(h.fs.getattr(f).size()).isZero();
        assertThat(h.fs.getattr(f).change()).isEqualTo(change);
    }

    @Test
    void writeEndingBeyondMaxFileSizeIsFBig() throws IOException {
        h.at(file());
        assertThat(statusOf(write(Long.MAX_VALUE - 1, "abc", stable_how4.UNSTABLE4))).isEqualTo(NfsStatus.FBIG);
        assertThat(statusOf(write(-1L, "abc", stable_how4.UNSTABLE4))).isEqualTo(NfsStatus.FBIG);
    }

    @Test
    void readAndWriteOfADirectoryAreIsDir() throws IOException {
        h.at(h.fs.getRootInode());
        assertThat(statusOf(read(0, 10))).isEqualTo(NfsStatus.ISDIR);
        assertThat(statusOf(write(0, "x", stable_how4.UNSTABLE4))).isEqualTo(NfsStatus.ISDIR);
        assertThat(statusOf(h.run(OP_COMMIT, new COMMIT4args(0, 0)))).isEqualTo(NfsStatus.ISDIR);
    }

    @Test
    void readAndWriteOfASymlinkOrFifoAreInval() throws IOException {
        Inode link = h.fs.symlink(h.fs.getRootInode(), "l", "target", ALICE, 0777);
        Inode fifo = h.fs.mknod(h.fs.getRootInode(), "p", FileType.FIFO, 0, 0, ALICE, 0644);
        for (Inode inode : new Inode[] {link, fifo}) {
            h.at(inode);
            assertThat(statusOf(read(0, 10))).isEqualTo(NfsStatus.INVAL);
            assertThat(statusOf(write(0, "x", stable_how4.UNSTABLE4))).isEqualTo(NfsStatus.INVAL);
        }
    }

    @Test
    void commitAnswersTheBootVerifier() throws IOException {
        h.at(file());
        write(0, "abc", stable_how4.UNSTABLE4);
        nfs_resop4 c = h.run(OP_COMMIT, new COMMIT4args(0, 0));
        assertThat(statusOf(c)).isEqualTo(NfsStatus.OK);
        assertThat(((COMMIT4resok) c.body).writeverf.value).isEqualTo(h.server.bootVerifier());
    }

    @Test
    void readResultEncodesTheSameBytesTwice() throws IOException {
        ByteBuffer data = ByteBuffer.wrap("abcdef".getBytes(StandardCharsets.UTF_8));
        READ4resok ok = new READ4resok(true, data);
        org.dcache.oncrpc4j.xdr.Xdr first = new org.dcache.oncrpc4j.xdr.Xdr(64);
        first.beginEncoding();
        ok.xdrEncode(first);
        org.dcache.oncrpc4j.xdr.Xdr second = new org.dcache.oncrpc4j.xdr.Xdr(64);
        second.beginEncoding();
        ok.xdrEncode(second);
        assertThat(second.asBuffer().position()).isEqualTo(first.asBuffer().position()).isEqualTo(4 + 4 + 8);
        assertThat(data.remaining()).isEqualTo(6);
    }

    @Test
    void writeDataLongerThanTheRequestIsRefused() throws IOException {
        // a WRITE whose opaque announces more bytes than are present does not decode
        org.dcache.oncrpc4j.xdr.Xdr xdr = new org.dcache.oncrpc4j.xdr.Xdr(64);
        xdr.beginEncoding();
        new stateid4().xdrEncode(xdr);
        xdr.xdrEncodeLong(0);
        xdr.xdrEncodeInt(stable_how4.UNSTABLE4);
        xdr.xdrEncodeInt(1 << 30);
        xdr.xdrEncodeInt(0);
        xdr.endEncoding();
        xdr.beginDecoding();
        WRITE4args args = new WRITE4args();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> args.xdrDecode(xdr))
                .isInstanceOf(IOException.class);
    }
}
