package org.tcnfs.nfs4.attr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.nfs4.xdr.nfs4_attr.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.compound.NfsLimits;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.FsStat;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.vfs.TimeChange;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;

class FileAttributesTest {
    private static final Credential ALICE = new Credential(1000, 100, new int[0]);

    private final InMemoryFileSystem fs = new InMemoryFileSystem();
    private final CompoundContext context =
            AttrTestContexts.context(AttrTestContexts.server(fs, NfsLimits.DEFAULTS), Credential.ROOT);

    // ---- helpers ----

    /** Encodes one attribute of {@code inode} and returns a decoder positioned at its value. */
    private Xdr encodeOne(Inode inode, int attribute) throws IOException {
        fattr4 f = FileAttributes.encode(context, inode, fs.getattr(inode), Bitmaps.of(attribute));
        assertThat(Bitmaps.toNumbers(f.attrmask)).containsExactly(attribute);
        Xdr xdr = new Xdr(f.attr_vals);
        xdr.beginDecoding();
        return xdr;
    }

    private static fattr4 settable(int attribute, ValueWriter writer) {
        Xdr xdr = new Xdr(64);
        xdr.beginEncoding();
        writer.write(xdr);
        xdr.endEncoding();
        return new fattr4(Bitmaps.of(attribute), bytesOf(xdr));
    }

    private static byte[] bytesOf(Xdr xdr) {
        var buffer = xdr.asBuffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    @FunctionalInterface
    private interface ValueWriter {
        void write(Xdr xdr);
    }

    private static NfsStatus statusOf(ThrowingCall call) {
        try {
            call.run();
        } catch (NfsException e) {
            return e.status();
        } catch (Exception e) {
            throw new AssertionError("not an NFS status: " + e, e);
        }
        throw new AssertionError("no exception");
    }

    @FunctionalInterface
    private interface ThrowingCall {
        void run() throws Exception;
    }

    private Inode file() throws IOException {
        return fs.create(fs.getRootInode(), "f", ALICE, 0640);
    }

    // ---- encoding ----

    @Test
    void supportedAttrsHoldsEveryRequiredAttribute() {
        int[] required = {FATTR4_SUPPORTED_ATTRS, FATTR4_TYPE, FATTR4_FH_EXPIRE_TYPE, FATTR4_CHANGE, FATTR4_SIZE,
            FATTR4_LINK_SUPPORT, FATTR4_SYMLINK_SUPPORT, FATTR4_NAMED_ATTR, FATTR4_FSID, FATTR4_UNIQUE_HANDLES,
            FATTR4_LEASE_TIME, FATTR4_RDATTR_ERROR, FATTR4_FILEHANDLE, FATTR4_SUPPATTR_EXCLCREAT};
        for (int a : required) {
            assertThat(Bitmaps.isSet(FileAttributes.supported(), a)).as("attribute %d", a).isTrue();
        }
        assertThat(Bitmaps.isSet(FileAttributes.supported(), FATTR4_ACL)).isFalse();
    }

    @Test
    void supportedAttrsEncodesTheSupportedMask() throws IOException {
        Xdr xdr = encodeOne(fs.getRootInode(), FATTR4_SUPPORTED_ATTRS);
        assertThat(xdr.xdrDecodeIntVector()).containsExactly(FileAttributes.supported().value);
    }

    @Test
    void typeOfFileAndDirectory() throws IOException {
        assertThat(encodeOne(file(), FATTR4_TYPE).xdrDecodeInt()).isEqualTo(nfs_ftype4.NF4REG);
        assertThat(encodeOne(fs.getRootInode(), FATTR4_TYPE).xdrDecodeInt()).isEqualTo(nfs_ftype4.NF4DIR);
    }

    @Test
    void fixedValuedAttributes() throws IOException {
        Inode root = fs.getRootInode();
        assertThat(encodeOne(root, FATTR4_FH_EXPIRE_TYPE).xdrDecodeInt()).isEqualTo(FH4_PERSISTENT);
        assertThat(encodeOne(root, FATTR4_LINK_SUPPORT).xdrDecodeBoolean()).isTrue();
        assertThat(encodeOne(root, FATTR4_SYMLINK_SUPPORT).xdrDecodeBoolean()).isTrue();
        assertThat(encodeOne(root, FATTR4_NAMED_ATTR).xdrDecodeBoolean()).isFalse();
        assertThat(encodeOne(root, FATTR4_UNIQUE_HANDLES).xdrDecodeBoolean()).isTrue();
        assertThat(encodeOne(root, FATTR4_ACLSUPPORT).xdrDecodeInt()).isZero();
        assertThat(encodeOne(root, FATTR4_CANSETTIME).xdrDecodeBoolean()).isTrue();
        assertThat(encodeOne(root, FATTR4_CASE_INSENSITIVE).xdrDecodeBoolean()).isFalse();
        assertThat(encodeOne(root, FATTR4_CASE_PRESERVING).xdrDecodeBoolean()).isTrue();
        assertThat(encodeOne(root, FATTR4_CHOWN_RESTRICTED).xdrDecodeBoolean()).isTrue();
        assertThat(encodeOne(root, FATTR4_HOMOGENEOUS).xdrDecodeBoolean()).isTrue();
        assertThat(encodeOne(root, FATTR4_NO_TRUNC).xdrDecodeBoolean()).isTrue();
        assertThat(encodeOne(root, FATTR4_MAXNAME).xdrDecodeInt()).isEqualTo(255);
        assertThat(encodeOne(root, FATTR4_MAXLINK).xdrDecodeInt()).isEqualTo(FileAttributes.MAX_LINK);
        assertThat(encodeOne(root, FATTR4_MAXFILESIZE).xdrDecodeLong()).isEqualTo(Long.MAX_VALUE);
        assertThat(encodeOne(root, FATTR4_RDATTR_ERROR).xdrDecodeInt()).isEqualTo(NfsStatus.OK.code());
        Xdr delta = encodeOne(root, FATTR4_TIME_DELTA);
        assertThat(delta.xdrDecodeLong()).isZero();
        assertThat(delta.xdrDecodeInt()).isEqualTo(1);
        Xdr excl = encodeOne(root, FATTR4_SUPPATTR_EXCLCREAT);
        assertThat(Bitmaps.toNumbers(new bitmap4(excl.xdrDecodeIntVector())))
                .containsExactly(FATTR4_SIZE, FATTR4_MODE, FATTR4_OWNER, FATTR4_OWNER_GROUP);
    }

    @Test
    void limitsComeFromTheServer() throws IOException {
        NfsLimits limits = new NfsLimits(64, 1 << 20, 1 << 20, 8192, 16384, 4, Duration.ofSeconds(45),
                Duration.ofSeconds(45));
        CompoundContext small = AttrTestContexts.context(AttrTestContexts.server(fs, limits), Credential.ROOT);
        Inode root = fs.getRootInode();
        fattr4 f = FileAttributes.encode(small, root, fs.getattr(root),
                Bitmaps.of(FATTR4_LEASE_TIME, FATTR4_MAXREAD, FATTR4_MAXWRITE));
        Xdr xdr = new Xdr(f.attr_vals);
        xdr.beginDecoding();
        assertThat(xdr.xdrDecodeInt()).isEqualTo(45);
        assertThat(xdr.xdrDecodeLong()).isEqualTo(8192);
        assertThat(xdr.xdrDecodeLong()).isEqualTo(16384);
    }

    @Test
    void statAttributesRoundTrip() throws IOException {
        Inode f = file();
        fs.setattr(f, new SetAttributes(null, null, null, 1234L, null, null));
        Stat st = fs.getattr(f);
        assertThat(encodeOne(f, FATTR4_CHANGE).xdrDecodeLong()).isEqualTo(st.change());
        assertThat(encodeOne(f, FATTR4_SIZE).xdrDecodeLong()).isEqualTo(1234);
        assertThat(encodeOne(f, FATTR4_FILEID).xdrDecodeLong()).isEqualTo(st.fileId());
        assertThat(encodeOne(f, FATTR4_MOUNTED_ON_FILEID).xdrDecodeLong()).isEqualTo(st.fileId());
        assertThat(encodeOne(f, FATTR4_MODE).xdrDecodeInt()).isEqualTo(0640);
        assertThat(encodeOne(f, FATTR4_NUMLINKS).xdrDecodeInt()).isEqualTo(1);
        assertThat(encodeOne(f, FATTR4_OWNER).xdrDecodeString()).isEqualTo("1000");
        assertThat(encodeOne(f, FATTR4_OWNER_GROUP).xdrDecodeString()).isEqualTo("100");
        assertThat(encodeOne(f, FATTR4_SPACE_USED).xdrDecodeLong()).isEqualTo(st.spaceUsed());
        Xdr rawdev = encodeOne(f, FATTR4_RAWDEV);
        assertThat(rawdev.xdrDecodeInt()).isZero();
        assertThat(rawdev.xdrDecodeInt()).isZero();
        assertThat(timeOf(encodeOne(f, FATTR4_TIME_ACCESS))).isEqualTo(st.atime());
        assertThat(timeOf(encodeOne(f, FATTR4_TIME_MODIFY))).isEqualTo(st.mtime());
        assertThat(timeOf(encodeOne(f, FATTR4_TIME_METADATA))).isEqualTo(st.ctime());
    }

    @Test
    void handleFsidAndCapacityComeFromTheFileSystem() throws IOException {
        Inode f = file();
        assertThat(encodeOne(f, FATTR4_FILEHANDLE).xdrDecodeDynamicOpaque()).isEqualTo(f.toBytes());
        Xdr fsid = encodeOne(f, FATTR4_FSID);
        assertThat(fsid.xdrDecodeLong()).isEqualTo(fs.fileSystemId(f).major());
        assertThat(fsid.xdrDecodeLong()).isEqualTo(fs.fileSystemId(f).minor());
        FsStat cap = fs.getFsStat(f);
        assertThat(encodeOne(f, FATTR4_SPACE_TOTAL).xdrDecodeLong()).isEqualTo(cap.totalBytes());
        assertThat(encodeOne(f, FATTR4_SPACE_FREE).xdrDecodeLong()).isEqualTo(cap.freeBytes());
        assertThat(encodeOne(f, FATTR4_SPACE_AVAIL).xdrDecodeLong()).isEqualTo(cap.availableBytes());
        assertThat(encodeOne(f, FATTR4_FILES_TOTAL).xdrDecodeLong()).isEqualTo(cap.totalFiles());
        assertThat(encodeOne(f, FATTR4_FILES_FREE).xdrDecodeLong()).isEqualTo(cap.freeFiles());
        assertThat(encodeOne(f, FATTR4_FILES_AVAIL).xdrDecodeLong()).isEqualTo(cap.freeFiles());
    }

    @Test
    void valuesFollowBitOrderAndUnsupportedBitsAreDropped() throws IOException {
        Inode f = file();
        bitmap4 requested = Bitmaps.of(FATTR4_MODE, FATTR4_TYPE, FATTR4_ACL, FATTR4_SIZE, 200);
        fattr4 attrs = FileAttributes.encode(context, f, fs.getattr(f), requested);
        assertThat(Bitmaps.toNumbers(attrs.attrmask)).containsExactly(FATTR4_TYPE, FATTR4_SIZE, FATTR4_MODE);
        Xdr xdr = new Xdr(attrs.attr_vals);
        xdr.beginDecoding();
        assertThat(xdr.xdrDecodeInt()).isEqualTo(nfs_ftype4.NF4REG);
        assertThat(xdr.xdrDecodeLong()).isZero();
        assertThat(xdr.xdrDecodeInt()).isEqualTo(0640);
        assertThat(attrs.attr_vals).hasSize(16);
    }

    @Test
    void timeCreateIsLeftOutWhenUnknownAndSentWhenKnown() throws IOException {
        Instant t = Instant.ofEpochSecond(1_700_000_000L, 5);
        Stat without = new Stat(FileType.REGULAR, 0644, 1, 0, 0, 0, 0, 7, 0, 0, t, t, t, null, 1);
        Stat with = new Stat(FileType.REGULAR, 0644, 1, 0, 0, 0, 0, 7, 0, 0, t, t, t, t, 1);
        Inode f = file();
        bitmap4 requested = Bitmaps.of(FATTR4_TIME_CREATE, FATTR4_FILEID);
        assertThat(Bitmaps.toNumbers(FileAttributes.encode(context, f, without, requested).attrmask))
                .containsExactly(FATTR4_FILEID);
        fattr4 attrs = FileAttributes.encode(context, f, with, requested);
        assertThat(Bitmaps.toNumbers(attrs.attrmask)).containsExactly(FATTR4_FILEID, FATTR4_TIME_CREATE);
        Xdr xdr = new Xdr(attrs.attr_vals);
        xdr.beginDecoding();
        assertThat(xdr.xdrDecodeLong()).isEqualTo(7);
        assertThat(timeOf(xdr)).isEqualTo(t);
    }

    @Test
    void requestingAWriteOnlyAttributeIsInval() throws IOException {
        Inode f = file();
        Stat st = fs.getattr(f);
        assertThat(statusOf(() -> FileAttributes.encode(context, f, st, Bitmaps.of(FATTR4_TIME_MODIFY_SET))))
                .isEqualTo(NfsStatus.INVAL);
    }

    @Test
    void handleIsNotAskedForWhenNoAttributeNeedsIt() throws IOException {
        Inode f = file();
        Stat st = fs.getattr(f);
        fattr4 attrs = FileAttributes.encode(context, () -> {
            throw new AssertionError("handle asked for");
        }, st, Bitmaps.of(FATTR4_TYPE, FATTR4_SIZE, FATTR4_MODE, FATTR4_OWNER, FATTR4_TIME_MODIFY));
        assertThat(Bitmaps.toNumbers(attrs.attrmask)).hasSize(5);
        assertThat(FileAttributes.needsInode(Bitmaps.of(FATTR4_TYPE, FATTR4_SIZE))).isFalse();
        assertThat(FileAttributes.needsInode(Bitmaps.of(FATTR4_TYPE, FATTR4_FILEHANDLE))).isTrue();
    }

    @Test
    void rdattrErrorOnlyCarriesTheStatus() throws IOException {
        fattr4 attrs = FileAttributes.rdattrErrorOnly(NfsStatus.STALE);
        assertThat(Bitmaps.toNumbers(attrs.attrmask)).containsExactly(FATTR4_RDATTR_ERROR);
        Xdr xdr = new Xdr(attrs.attr_vals);
        xdr.beginDecoding();
        assertThat(xdr.xdrDecodeInt()).isEqualTo(NfsStatus.STALE.code());
    }

    private static Instant timeOf(Xdr xdr) throws IOException {
        long s = xdr.xdrDecodeLong();
        int ns = xdr.xdrDecodeInt();
        return Instant.ofEpochSecond(s, ns);
    }

    // ---- decoding ----

    @Test
    void settableAttributesRoundTrip() throws IOException {
        Xdr xdr = new Xdr(128);
        xdr.beginEncoding();
        xdr.xdrEncodeLong(4096);                 // size
        xdr.xdrEncodeInt(0751);                  // mode
        xdr.xdrEncodeString("1000");             // owner
        xdr.xdrEncodeString("100");              // owner_group
        xdr.xdrEncodeInt(SET_TO_CLIENT_TIME4);   // time_access_set
        xdr.xdrEncodeLong(1_600_000_000L);
        xdr.xdrEncodeInt(123);
        xdr.xdrEncodeInt(SET_TO_SERVER_TIME4);   // time_modify_set
        xdr.endEncoding();
        fattr4 attrs = new fattr4(Bitmaps.of(FATTR4_SIZE, FATTR4_MODE, FATTR4_OWNER, FATTR4_OWNER_GROUP,
                FATTR4_TIME_ACCESS_SET, FATTR4_TIME_MODIFY_SET), bytesOf(xdr));
        AttributesToSet decoded = FileAttributes.decodeSettableWithMask(context, attrs);
        assertThat(decoded.changes()).isEqualTo(new SetAttributes(0751, 1000, 100, 4096L,
                TimeChange.at(Instant.ofEpochSecond(1_600_000_000L, 123)), TimeChange.serverTime()));
        assertThat(Bitmaps.toNumbers(decoded.mask())).containsExactly(FATTR4_SIZE, FATTR4_MODE, FATTR4_OWNER,
                FATTR4_OWNER_GROUP, FATTR4_TIME_ACCESS_SET, FATTR4_TIME_MODIFY_SET);
        assertThat(FileAttributes.decodeSettable(context, attrs)).isEqualTo(decoded.changes());
    }

    @Test
    void emptyMaskSetsNothing() throws IOException {
        AttributesToSet decoded = FileAttributes.decodeSettableWithMask(context, new fattr4());
        assertThat(decoded.changes().isEmpty()).isTrue();
        assertThat(Bitmaps.isEmpty(decoded.mask())).isTrue();
    }

    @Test
    void readOnlyAttributeIsInval() {
        fattr4 attrs = settable(FATTR4_FILEID, x -> x.xdrEncodeLong(5));
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, attrs))).isEqualTo(NfsStatus.INVAL);
        fattr4 type = settable(FATTR4_TYPE, x -> x.xdrEncodeInt(1));
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, type))).isEqualTo(NfsStatus.INVAL);
    }

    @Test
    void unsupportedAttributeIsAttrNotSupp() {
        fattr4 acl = settable(FATTR4_ACL, x -> x.xdrEncodeInt(0));
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, acl))).isEqualTo(NfsStatus.ATTRNOTSUPP);
        fattr4 far = settable(300, x -> x.xdrEncodeInt(0));
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, far))).isEqualTo(NfsStatus.ATTRNOTSUPP);
    }

    @Test
    void truncatedOrTrailingValuesAreBadXdr() {
        fattr4 shortSize = new fattr4(Bitmaps.of(FATTR4_SIZE), new byte[4]);
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, shortSize))).isEqualTo(NfsStatus.BADXDR);
        fattr4 trailing = settable(FATTR4_MODE, x -> {
            x.xdrEncodeInt(0644);
            x.xdrEncodeInt(0);
        });
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, trailing))).isEqualTo(NfsStatus.BADXDR);
        fattr4 hugeOwner = settable(FATTR4_OWNER, x -> x.xdrEncodeInt(0x7fffffff));
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, hugeOwner))).isEqualTo(NfsStatus.BADXDR);
        fattr4 badHow = settable(FATTR4_TIME_MODIFY_SET, x -> x.xdrEncodeInt(7));
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, badHow))).isEqualTo(NfsStatus.BADXDR);
    }

    @Test
    void modeBitsBeyond07777AreIgnored() throws IOException {
        fattr4 file = settable(FATTR4_MODE, x -> x.xdrEncodeInt(0100644));
        assertThat(FileAttributes.decodeSettable(context, file).mode()).isEqualTo(0644);
        fattr4 dir = settable(FATTR4_MODE, x -> x.xdrEncodeInt(040755));
        assertThat(FileAttributes.decodeSettable(context, dir).mode()).isEqualTo(0755);
    }

    @Test
    void nanosecondsOfABillionAreInval() {
        fattr4 attrs = settable(FATTR4_TIME_ACCESS_SET, x -> {
            x.xdrEncodeInt(SET_TO_CLIENT_TIME4);
            x.xdrEncodeLong(0);
            x.xdrEncodeInt(1_000_000_000);
        });
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, attrs))).isEqualTo(NfsStatus.INVAL);
    }

    @Test
    void sizeBeyondMaxFileSizeIsFBig() {
        fattr4 attrs = settable(FATTR4_SIZE, x -> x.xdrEncodeLong(-1));
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, attrs))).isEqualTo(NfsStatus.FBIG);
    }

    @Test
    void supportedAttributesOfNfs40AreThoseRfc7530Defines() throws IOException {
        CompoundContext v40 = AttrTestContexts.context(context.server(), 0, Credential.ROOT);
        Inode root = fs.getRootInode();
        bitmap4 supported = Bitmaps.of(FATTR4_SUPPORTED_ATTRS);

        fattr4 old = FileAttributes.encode(v40, root, fs.getattr(root), supported);
        fattr4 now = FileAttributes.encode(context, root, fs.getattr(root), supported);
        fattr4 exclcreat = FileAttributes.encode(v40, root, fs.getattr(root), Bitmaps.of(FATTR4_SUPPATTR_EXCLCREAT));

        Xdr xdr = new Xdr(old.attr_vals);
        xdr.beginDecoding();
        int[] words = xdr.xdrDecodeIntVector();
        int[] numbers = Bitmaps.toNumbers(new bitmap4(words));
        assertThat(numbers).contains(FATTR4_TYPE, FATTR4_MOUNTED_ON_FILEID);
        assertThat(java.util.Arrays.stream(numbers).max().orElseThrow()).isEqualTo(FATTR4_MOUNTED_ON_FILEID);
        assertThat(now.attr_vals.length).isGreaterThan(old.attr_vals.length);
        assertThat(Bitmaps.isEmpty(exclcreat.attrmask)).isTrue();
    }

    @Test
    void emptyOwnerOrGroupIsInval() {
        fattr4 owner = settable(FATTR4_OWNER, x -> x.xdrEncodeString(""));
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, owner))).isEqualTo(NfsStatus.INVAL);
        fattr4 group = settable(FATTR4_OWNER_GROUP, x -> x.xdrEncodeString(""));
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, group))).isEqualTo(NfsStatus.INVAL);
    }

    @Test
    void unknownOwnerIsBadOwner() {
        fattr4 owner = settable(FATTR4_OWNER, x -> x.xdrEncodeString("no-such-user-xyz@example.org"));
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, owner))).isEqualTo(NfsStatus.BADOWNER);
        fattr4 group = settable(FATTR4_OWNER_GROUP, x -> x.xdrEncodeString("no-such-group-xyz"));
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, group))).isEqualTo(NfsStatus.BADOWNER);
        fattr4 tooBig = settable(FATTR4_OWNER, x -> x.xdrEncodeString("4294967296"));
        assertThat(statusOf(() -> FileAttributes.decodeSettable(context, tooBig))).isEqualTo(NfsStatus.BADOWNER);
    }

    @Test
    void ownerNamesResolveThroughTheLocalFiles() throws IOException {
        fattr4 root = settable(FATTR4_OWNER, x -> x.xdrEncodeString("root@localdomain"));
        assertThat(FileAttributes.decodeSettable(context, root).uid()).isZero();
        fattr4 rootGroup = settable(FATTR4_OWNER_GROUP, x -> x.xdrEncodeString("root"));
        assertThat(FileAttributes.decodeSettable(context, rootGroup).gid()).isZero();
        fattr4 numericAtDomain = settable(FATTR4_OWNER, x -> x.xdrEncodeString("1234@example.org"));
        assertThat(FileAttributes.decodeSettable(context, numericAtDomain).uid()).isEqualTo(1234);
    }

    @Test
    void idMapperReadsPasswdAndGroupFiles(@TempDir Path dir) throws IOException {
        Path passwd = dir.resolve("passwd");
        Path group = dir.resolve("group");
        Files.writeString(passwd, "# comment\nalice:x:1001:1001::/home/alice:/bin/sh\nbad line\n",
                StandardCharsets.UTF_8);
        Files.writeString(group, "staff:x:50:alice\n", StandardCharsets.UTF_8);
        IdMapper ids = new IdMapper(passwd, group, Clock.systemUTC(), Duration.ofMinutes(1));
        assertThat(ids.uidOf("alice")).isEqualTo(1001);
        assertThat(ids.uidOf("alice@example.org")).isEqualTo(1001);
        assertThat(ids.gidOf("staff@example.org")).isEqualTo(50);
        assertThat(ids.uidOf("4294967294")).isEqualTo(-2);
        assertThat(IdMapper.toWire(-2)).isEqualTo("4294967294");
        assertThat(statusOf(() -> ids.uidOf("staff"))).isEqualTo(NfsStatus.BADOWNER);
        assertThat(statusOf(() -> ids.uidOf("alice@"))).isEqualTo(NfsStatus.BADOWNER);
        assertThat(statusOf(() -> ids.uidOf("a@b@c"))).isEqualTo(NfsStatus.BADOWNER);
    }

    // ---- verify ----

    @Test
    void matchesComparesEncodedValues() throws IOException {
        Inode f = file();
        Stat st = fs.getattr(f);
        fattr4 same = FileAttributes.encode(context, f, st, Bitmaps.of(FATTR4_SIZE, FATTR4_MODE));
        assertThat(FileAttributes.matches(context, f, st, same)).isTrue();
        fattr4 other = settable(FATTR4_MODE, x -> x.xdrEncodeInt(0600));
        assertThat(FileAttributes.matches(context, f, st, other)).isFalse();
    }

    @Test
    void matchesRefusesRdattrErrorWriteOnlyAndUnsupported() throws IOException {
        Inode f = file();
        Stat st = fs.getattr(f);
        fattr4 rdattr = settable(FATTR4_RDATTR_ERROR, x -> x.xdrEncodeInt(0));
        assertThat(statusOf(() -> FileAttributes.matches(context, f, st, rdattr))).isEqualTo(NfsStatus.INVAL);
        fattr4 writeOnly = settable(FATTR4_TIME_ACCESS_SET, x -> x.xdrEncodeInt(SET_TO_SERVER_TIME4));
        assertThat(statusOf(() -> FileAttributes.matches(context, f, st, writeOnly))).isEqualTo(NfsStatus.INVAL);
        fattr4 acl = settable(FATTR4_ACL, x -> x.xdrEncodeInt(0));
        assertThat(statusOf(() -> FileAttributes.matches(context, f, st, acl))).isEqualTo(NfsStatus.ATTRNOTSUPP);
    }
}
