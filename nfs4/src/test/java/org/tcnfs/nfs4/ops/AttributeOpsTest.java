package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.ops.DataOpsHarness.statusOf;
import static org.tcnfs.nfs4.xdr.nfs4_attr.*;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.attr.Bitmaps;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.vfs.WriteStability;
import org.tcnfs.nfs4.xdr.GETATTR4args;
import org.tcnfs.nfs4.xdr.GETATTR4resok;
import org.tcnfs.nfs4.xdr.NVERIFY4args;
import org.tcnfs.nfs4.xdr.SETATTR4args;
import org.tcnfs.nfs4.xdr.SETATTR4res;
import org.tcnfs.nfs4.xdr.VERIFY4args;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.stateid4;

class AttributeOpsTest {
    private static final Credential ALICE = new Credential(1000, 100, new int[0]);

    private final DataOpsHarness h = new DataOpsHarness();

    private Inode file() throws IOException {
        return h.fs.create(h.fs.getRootInode(), "f", ALICE, 0644);
    }

    private static Xdr valuesOf(nfs_resop4 result) {
        fattr4 attrs = ((GETATTR4resok) result.body).obj_attributes;
        Xdr xdr = new Xdr(attrs.attr_vals);
        xdr.beginDecoding();
        return xdr;
    }

    private static fattr4 values(int[] attributes, Writer writer) {
        Xdr xdr = new Xdr(256);
        xdr.beginEncoding();
        writer.write(xdr);
        xdr.endEncoding();
        var buffer = xdr.asBuffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return new fattr4(Bitmaps.of(attributes), bytes);
    }

    @FunctionalInterface
    private interface Writer {
        void write(Xdr xdr);
    }

    private nfs_resop4 setattr(int[] attributes, Writer writer) throws IOException {
        return h.run(OP_SETATTR, new SETATTR4args(new stateid4(), values(attributes, writer)));
    }

    private static int[] attrs(int... a) {
        return a;
    }

    // ---- GETATTR ----

    @Test
    void getattrOfAFileReturnsItsValues() throws IOException {
        Inode f = file();
        h.fs.write(f, 0, ByteBuffer.wrap(new byte[10]), WriteStability.FILE_SYNC);
        Stat st = h.fs.getattr(f);
        nfs_resop4 r = h.at(f).run(OP_GETATTR,
                new GETATTR4args(Bitmaps.of(FATTR4_TYPE, FATTR4_SIZE, FATTR4_FILEID, FATTR4_MODE, FATTR4_OWNER)));
        assertThat(statusOf(r)).isEqualTo(NfsStatus.OK);
        Xdr v = valuesOf(r);
        assertThat(v.xdrDecodeInt()).isEqualTo(nfs_ftype4.NF4REG);
        assertThat(v.xdrDecodeLong()).isEqualTo(10);
        assertThat(v.xdrDecodeLong()).isEqualTo(st.fileId());
        assertThat(v.xdrDecodeInt()).isEqualTo(0644);
        assertThat(v.xdrDecodeString()).isEqualTo("1000");
    }

    @Test
    void getattrOfADirectoryReturnsDirectoryType() throws IOException {
        nfs_resop4 r = h.at(h.fs.getRootInode()).run(OP_GETATTR,
                new GETATTR4args(Bitmaps.of(FATTR4_TYPE, FATTR4_NUMLINKS)));
        assertThat(statusOf(r)).isEqualTo(NfsStatus.OK);
        Xdr v = valuesOf(r);
        assertThat(v.xdrDecodeInt()).isEqualTo(nfs_ftype4.NF4DIR);
        assertThat(v.xdrDecodeInt()).isEqualTo(2);
    }

    @Test
    void getattrLeavesUnsupportedAttributesOutOfTheMask() throws IOException {
        nfs_resop4 r = h.at(h.fs.getRootInode()).run(OP_GETATTR,
                new GETATTR4args(Bitmaps.of(FATTR4_ACL, FATTR4_SIZE, FATTR4_QUOTA_USED)));
        assertThat(statusOf(r)).isEqualTo(NfsStatus.OK);
        assertThat(Bitmaps.toNumbers(((GETATTR4resok) r.body).obj_attributes.attrmask)).containsExactly(FATTR4_SIZE);
    }

    @Test
    void getattrWithoutCurrentHandleIsNoFileHandle() throws IOException {
        nfs_resop4 r = h.run(OP_GETATTR, new GETATTR4args(Bitmaps.of(FATTR4_SIZE)));
        assertThat(statusOf(r)).isEqualTo(NfsStatus.NOFILEHANDLE);
    }

    // ---- SETATTR ----

    @Test
    void setattrModeChangesModeAndAnswersAttrsset() throws IOException {
        Inode f = file();
        nfs_resop4 r = h.at(f).run(OP_SETATTR, new SETATTR4args(new stateid4(),
                values(attrs(FATTR4_MODE), x -> x.xdrEncodeInt(0600))));
        assertThat(statusOf(r)).isEqualTo(NfsStatus.OK);
        assertThat(Bitmaps.toNumbers(((SETATTR4res) r.body).attrsset)).containsExactly(FATTR4_MODE);
        assertThat(h.fs.getattr(f).mode()).isEqualTo(0600);
    }

    @Test
    void setattrSizeTruncatesAndExtends() throws IOException {
        Inode f = file();
        h.fs.write(f, 0, ByteBuffer.wrap(new byte[100]), WriteStability.FILE_SYNC);
        h.at(f);
        assertThat(statusOf(setattr(attrs(FATTR4_SIZE), x -> x.xdrEncodeLong(10)))).isEqualTo(NfsStatus.OK);
        assertThat(h.fs.getattr(f).size()).isEqualTo(10);
        assertThat(statusOf(setattr(attrs(FATTR4_SIZE), x -> x.xdrEncodeLong(5000)))).isEqualTo(NfsStatus.OK);
        assertThat(h.fs.getattr(f).size()).isEqualTo(5000);
    }

    @Test
    void setattrSizeOfADirectoryIsIsDirAndStillCarriesAnEmptyAttrsset() throws IOException {
        h.at(h.fs.getRootInode());
        nfs_resop4 r = setattr(attrs(FATTR4_SIZE), x -> x.xdrEncodeLong(0));
        assertThat(statusOf(r)).isEqualTo(NfsStatus.ISDIR);
        assertThat(r.body).isInstanceOf(SETATTR4res.class);
        assertThat(Bitmaps.isEmpty(((SETATTR4res) r.body).attrsset)).isTrue();
    }

    @Test
    void setattrTimesSetsClientAndServerTimes() throws IOException {
        Inode f = file();
        h.at(f);
        Instant before = Instant.now().minusSeconds(5);
        nfs_resop4 r = setattr(attrs(FATTR4_TIME_ACCESS_SET, FATTR4_TIME_MODIFY_SET), x -> {
            x.xdrEncodeInt(SET_TO_CLIENT_TIME4);
            x.xdrEncodeLong(1_000_000_000L);
            x.xdrEncodeInt(42);
            x.xdrEncodeInt(SET_TO_SERVER_TIME4);
        });
        assertThat(statusOf(r)).isEqualTo(NfsStatus.OK);
        Stat st = h.fs.getattr(f);
        assertThat(st.atime()).isEqualTo(Instant.ofEpochSecond(1_000_000_000L, 42));
        assertThat(st.mtime()).isAfter(before);
    }

    @Test
    void setattrOwnerAndGroupTakeNumbersAndNames() throws IOException {
        Inode f = file();
        h.at(f);
        nfs_resop4 r = setattr(attrs(FATTR4_OWNER, FATTR4_OWNER_GROUP), x -> {
            x.xdrEncodeString("2000@example.org");
            x.xdrEncodeString("root");
        });
        assertThat(statusOf(r)).isEqualTo(NfsStatus.OK);
        assertThat(h.fs.getattr(f).uid()).isEqualTo(2000);
        assertThat(h.fs.getattr(f).gid()).isZero();
    }

    @Test
    void setattrWithAnUnknownOwnerIsBadOwnerAndChangesNothing() throws IOException {
        Inode f = file();
        h.at(f);
        nfs_resop4 r = setattr(attrs(FATTR4_MODE, FATTR4_OWNER), x -> {
            x.xdrEncodeInt(0600);
            x.xdrEncodeString("nobody-known-here@example.org");
        });
        assertThat(statusOf(r)).isEqualTo(NfsStatus.BADOWNER);
        assertThat(Bitmaps.isEmpty(((SETATTR4res) r.body).attrsset)).isTrue();
        assertThat(h.fs.getattr(f).mode()).isEqualTo(0644);
    }

    @Test
    void setattrOfAReadOnlyAttributeIsInval() throws IOException {
        h.at(file());
        assertThat(statusOf(setattr(attrs(FATTR4_FILEID), x -> x.xdrEncodeLong(1)))).isEqualTo(NfsStatus.INVAL);
    }

    @Test
    void setattrOfAnUnsupportedAttributeIsAttrNotSupp() throws IOException {
        h.at(file());
        assertThat(statusOf(setattr(attrs(FATTR4_ARCHIVE), x -> x.xdrEncodeBoolean(true))))
                .isEqualTo(NfsStatus.ATTRNOTSUPP);
    }

    @Test
    void setattrWithGarbageValuesIsBadXdr() throws IOException {
        h.at(file());
        fattr4 twoBytes = new fattr4(Bitmaps.of(FATTR4_MODE), new byte[] {0, 1});
        assertThat(statusOf(h.run(OP_SETATTR, new SETATTR4args(new stateid4(), twoBytes))))
                .isEqualTo(NfsStatus.BADXDR);
    }

    // ---- VERIFY / NVERIFY ----

    @Test
    void verifySucceedsOnEqualAndNverifyFailsWithSame() throws IOException {
        Inode f = file();
        h.at(f);
        fattr4 same = values(attrs(FATTR4_TYPE, FATTR4_MODE), x -> {
            x.xdrEncodeInt(nfs_ftype4.NF4REG);
            x.xdrEncodeInt(0644);
        });
        assertThat(statusOf(h.run(OP_VERIFY, new VERIFY4args(same)))).isEqualTo(NfsStatus.OK);
        assertThat(statusOf(h.run(OP_NVERIFY, new NVERIFY4args(same)))).isEqualTo(NfsStatus.SAME);
    }

    @Test
    void verifyFailsWithNotSameAndNverifySucceedsOnDifferent() throws IOException {
        h.at(file());
        fattr4 other = values(attrs(FATTR4_SIZE), x -> x.xdrEncodeLong(99));
        assertThat(statusOf(h.run(OP_VERIFY, new VERIFY4args(other)))).isEqualTo(NfsStatus.NOT_SAME);
        assertThat(statusOf(h.run(OP_NVERIFY, new NVERIFY4args(other)))).isEqualTo(NfsStatus.OK);
    }

    @Test
    void verifyOfRdattrErrorIsInval() throws IOException {
        h.at(file());
        fattr4 rdattr = values(attrs(FATTR4_RDATTR_ERROR), x -> x.xdrEncodeInt(0));
        assertThat(statusOf(h.run(OP_VERIFY, new VERIFY4args(rdattr)))).isEqualTo(NfsStatus.INVAL);
        assertThat(statusOf(h.run(OP_NVERIFY, new NVERIFY4args(rdattr)))).isEqualTo(NfsStatus.INVAL);
    }

    @Test
    void verifyOfAnUnsupportedAttributeIsAttrNotSupp() throws IOException {
        h.at(file());
        fattr4 acl = values(attrs(FATTR4_ACL), x -> x.xdrEncodeInt(0));
        assertThat(statusOf(h.run(OP_VERIFY, new VERIFY4args(acl)))).isEqualTo(NfsStatus.ATTRNOTSUPP);
    }
}
