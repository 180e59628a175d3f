package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.xdr.ACCESS4args;
import org.tcnfs.nfs4.xdr.ACCESS4resok;
import org.tcnfs.nfs4.xdr.COMPOUND4res;
import org.tcnfs.nfs4.xdr.CREATE4args;
import org.tcnfs.nfs4.xdr.CREATE4resok;
import org.tcnfs.nfs4.xdr.GETFH4resok;
import org.tcnfs.nfs4.xdr.LINK4args;
import org.tcnfs.nfs4.xdr.LINK4resok;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.READLINK4resok;
import org.tcnfs.nfs4.xdr.REMOVE4args;
import org.tcnfs.nfs4.xdr.REMOVE4resok;
import org.tcnfs.nfs4.xdr.RENAME4args;
import org.tcnfs.nfs4.xdr.RENAME4resok;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.change_info4;
import org.tcnfs.nfs4.xdr.createtype4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs_argop4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.nfs4.xdr.specdata4;

/** CREATE, REMOVE, RENAME, LINK, READLINK and ACCESS, and a few whole compounds through the engine. */
class NamespaceOperationsTest {
    private final OpHarness h = new OpHarness(1);
    private final Inode root = h.fs.getRootInode();

    private boolean exists(Inode dir, String name) throws Exception {
        try {
            h.fs.lookup(dir, name);
            return true;
        } catch (NfsException e) {
            assertThat(e.status()).isEqualTo(NfsStatus.NOENT);
            return false;
        }
    }

    private static CREATE4args create(int type, String name) {
        return new CREATE4args(new createtype4(type), name, new fattr4());
    }

    private static CREATE4args symlink(String name, String target) {
        createtype4 t = new createtype4(nfs_ftype4.NF4LNK);
        t.linkdata = target.getBytes(StandardCharsets.UTF_8);
        return new CREATE4args(t, name, new fattr4());
    }

    private static CREATE4args device(int type, String name, int major, int minor) {
        createtype4 t = new createtype4(type);
        t.devdata = new specdata4(major, minor);
        return new CREATE4args(t, name, new fattr4());
    }

    private static void assertChanged(change_info4 cinfo) {
        assertThat(cinfo.atomic).isFalse();
        assertThat(cinfo.after).isNotEqualTo(cinfo.before);
    }

    // CREATE

    @Test
    void createOfDirectoryMakesItCurrentAndReportsTheParentsChange() throws Exception {
        h.putroot();
        long before = h.fs.getattr(root).change();
        CREATE4resok res = h.ok(OP_CREATE, create(nfs_ftype4.NF4DIR, "d"), CREATE4resok.class);
        Inode d = h.fs.lookup(root, "d");
        assertThat(h.currentHandle()).isEqualTo(d);
        Stat st = h.fs.getattr(d);
        assertThat(st.type()).isEqualTo(FileType.DIRECTORY);
        assertThat(st.mode()).isEqualTo(0755);
        assertThat(res.cinfo.before).isEqualTo(before);
        assertThat(res.cinfo.after).isEqualTo(h.fs.getattr(root).change());
        assertChanged(res.cinfo);
        assertThat(res.attrset.value).as("nothing asked, nothing set").isEmpty();
    }

    @Test
    void createOfSymlinkStoresTheTargetVerbatim() throws Exception {
        h.putroot();
        h.ok(OP_CREATE, symlink("l", "../a//b/./ü"), CREATE4resok.class);
        Inode l = h.fs.lookup(root, "l");
        assertThat(h.fs.getattr(l).type()).isEqualTo(FileType.SYMLINK);
        assertThat(h.fs.getattr(l).mode()).isEqualTo(0777);
        assertThat(h.fs.readlink(l)).isEqualTo("../a//b/./ü");
        READLINK4resok link = h.ok(OP_READLINK, null, READLINK4resok.class);
        assertThat(new String(link.link, StandardCharsets.UTF_8)).isEqualTo("../a//b/./ü");
    }

    @Test
    void createOfBlockAndCharacterDevicesKeepsTheDeviceNumbers() throws Exception {
        h.putroot();
        h.ok(OP_CREATE, device(nfs_ftype4.NF4BLK, "sda", 8, 0), CREATE4resok.class);
        h.putroot();
        h.ok(OP_CREATE, device(nfs_ftype4.NF4CHR, "null", 1, 3), CREATE4resok.class);
        Stat blk = h.fs.getattr(h.fs.lookup(root, "sda"));
        Stat chr = h.fs.getattr(h.fs.lookup(root, "null"));
        assertThat(blk.type()).isEqualTo(FileType.BLOCK);
        assertThat(blk.rdevMajor()).isEqualTo(8);
        assertThat(blk.rdevMinor()).isEqualTo(0);
        assertThat(chr.type()).isEqualTo(FileType.CHAR);
        assertThat(chr.rdevMajor()).isEqualTo(1);
        assertThat(chr.rdevMinor()).isEqualTo(3);
        assertThat(chr.mode()).isEqualTo(0644);
    }

    @Test
    void createOfSocketAndFifo() throws Exception {
        h.putroot();
        h.ok(OP_CREATE, create(nfs_ftype4.NF4SOCK, "sock"), CREATE4resok.class);
        h.putroot();
        h.ok(OP_CREATE, create(nfs_ftype4.NF4FIFO, "fifo"), CREATE4resok.class);
        assertThat(h.fs.getattr(h.fs.lookup(root, "sock")).type()).isEqualTo(FileType.SOCKET);
        assertThat(h.fs.getattr(h.fs.lookup(root, "fifo")).type()).isEqualTo(FileType.FIFO);
    }

    @Test
    void createOfRegularFileIsBadTypeAndCreatesNothing() throws Exception {
        h.putroot();
        assertThat(h.status(OP_CREATE, create(nfs_ftype4.NF4REG, "f"))).isEqualTo(NfsStatus.BADTYPE);
        assertThat(exists(root, "f")).isFalse();
    }

    @Test
    void createOfUnknownOrAttributeTypesIsBadType() throws Exception {
        h.putroot();
        assertThat(h.status(OP_CREATE, create(nfs_ftype4.NF4NAMEDATTR, "x"))).isEqualTo(NfsStatus.BADTYPE);
        assertThat(h.status(OP_CREATE, create(nfs_ftype4.NF4ATTRDIR, "x"))).isEqualTo(NfsStatus.BADTYPE);
        assertThat(h.status(OP_CREATE, create(0, "x"))).isEqualTo(NfsStatus.BADTYPE);
        assertThat(h.status(OP_CREATE, create(1000, "x"))).isEqualTo(NfsStatus.BADTYPE);
        assertThat(exists(root, "x")).isFalse();
    }

    @ParameterizedTest(name = "[{index}] \"{0}\" -> {1}")
    @CsvSource({"'', INVAL", "., BADNAME", "'..', BADNAME", "a/b, BADCHAR"})
    void createRefusesBadNames(String name, NfsStatus expected) throws Exception {
        h.putroot();
        long before = h.fs.getattr(root).change();
        assertThat(h.status(OP_CREATE, create(nfs_ftype4.NF4DIR, name))).isEqualTo(expected);
        assertThat(h.fs.getattr(root).change()).as("nothing changed").isEqualTo(before);
    }

    @Test
    void createOfNameOver255BytesIsNameTooLong() throws Exception {
        h.putroot();
        assertThat(h.status(OP_CREATE, create(nfs_ftype4.NF4DIR, "d".repeat(256)))).isEqualTo(NfsStatus.NAMETOOLONG);
        assertThat(h.status(OP_CREATE, create(nfs_ftype4.NF4DIR, "d".repeat(255)))).isEqualTo(NfsStatus.OK);
    }

    @Test
    void createOfTakenNameIsExist() throws Exception {
        h.file(root, "taken");
        h.putroot();
        assertThat(h.status(OP_CREATE, create(nfs_ftype4.NF4DIR, "taken"))).isEqualTo(NfsStatus.EXIST);
    }

    @Test
    void createInAFileIsNotDir() throws Exception {
        h.putfh(h.file(root, "f"));
        assertThat(h.status(OP_CREATE, create(nfs_ftype4.NF4DIR, "d"))).isEqualTo(NfsStatus.NOTDIR);
    }

    @Test
    void createWithoutCurrentHandleIsNoFileHandle() throws Exception {
        assertThat(h.status(OP_CREATE, create(nfs_ftype4.NF4DIR, "d"))).isEqualTo(NfsStatus.NOFILEHANDLE);
    }

    @Test
    void createOfSymlinkWithEmptyTargetIsInval() throws Exception {
        h.putroot();
        assertThat(h.status(OP_CREATE, symlink("l", ""))).isEqualTo(NfsStatus.INVAL);
        assertThat(exists(root, "l")).isFalse();
    }

    @Test
    void createOfSymlinkWithTargetThatIsNotUtf8IsInval() throws Exception {
        h.putroot();
        createtype4 t = new createtype4(nfs_ftype4.NF4LNK);
        t.linkdata = new byte[] {'a', (byte) 0xc0, (byte) 0xaf};
        assertThat(h.status(OP_CREATE, new CREATE4args(t, "l", new fattr4()))).isEqualTo(NfsStatus.INVAL);
        assertThat(exists(root, "l")).isFalse();
    }

    @Test
    void createWithAttributesThatCannotBeSetCreatesNothing() throws Exception {
        // bit 1 is "type", which no client may set
        fattr4 attrs = new fattr4(new bitmap4(new int[] {1 << 1}), new byte[] {0, 0, 0, 2});
        h.putroot();
        long before = h.fs.getattr(root).change();
        NfsStatus status = h.status(OP_CREATE,
                new CREATE4args(new createtype4(nfs_ftype4.NF4DIR), "d", attrs));
        assertThat(status).isEqualTo(NfsStatus.INVAL);
        assertThat(exists(root, "d")).isFalse();
        assertThat(h.fs.getattr(root).change()).isEqualTo(before);
    }

    // REMOVE

    @Test
    void removeOfAFileRemovesItAndReportsTheChange() throws Exception {
        Inode f = h.file(root, "f");
        h.putroot();
        REMOVE4resok res = h.ok(OP_REMOVE, new REMOVE4args("f"), REMOVE4resok.class);
        assertChanged(res.cinfo);
        assertThat(exists(root, "f")).isFalse();
        assertThatThrownBy(() -> h.fs.getattr(f)).isInstanceOf(NfsException.class);
        assertThat(h.currentHandle()).as("the directory stays current").isEqualTo(root);
    }

    @Test
    void removeOfAnEmptyDirectorySucceeds() throws Exception {
        h.mkdir(root, "d");
        h.putroot();
        h.ok(OP_REMOVE, new REMOVE4args("d"), REMOVE4resok.class);
        assertThat(exists(root, "d")).isFalse();
    }

    @Test
    void removeOfNonEmptyDirectoryIsNotEmpty() throws Exception {
        h.file(h.mkdir(root, "d"), "inside");
        h.putroot();
        assertThat(h.status(OP_REMOVE, new REMOVE4args("d"))).isEqualTo(NfsStatus.NOTEMPTY);
        assertThat(exists(root, "d")).isTrue();
    }

    @Test
    void removeOfMissingNameIsNoEnt() throws Exception {
        h.putroot();
        assertThat(h.status(OP_REMOVE, new REMOVE4args("missing"))).isEqualTo(NfsStatus.NOENT);
    }

    @Test
    void removeRefusesDotDotAndSlash() throws Exception {
        h.mkdir(root, "d");
        h.putfh(h.fs.lookup(root, "d"));
        assertThat(h.status(OP_REMOVE, new REMOVE4args(".."))).isEqualTo(NfsStatus.BADNAME);
        assertThat(h.status(OP_REMOVE, new REMOVE4args("../d"))).isEqualTo(NfsStatus.BADCHAR);
        assertThat(h.status(OP_REMOVE, new REMOVE4args(""))).isEqualTo(NfsStatus.INVAL);
        assertThat(exists(root, "d")).isTrue();
    }

    @Test
    void removeInAFileIsNotDir() throws Exception {
        h.putfh(h.file(root, "f"));
        assertThat(h.status(OP_REMOVE, new REMOVE4args("x"))).isEqualTo(NfsStatus.NOTDIR);
    }

    // RENAME

    @Test
    void renameWithinOneDirectory() throws Exception {
        Inode f = h.file(root, "a");
        h.putroot();
        h.ok(OP_SAVEFH, null);
        RENAME4resok res = h.ok(OP_RENAME, new RENAME4args("a", "b"), RENAME4resok.class);
        assertThat(h.fs.lookup(root, "b")).isEqualTo(f);
        assertThat(exists(root, "a")).isFalse();
        assertChanged(res.source_cinfo);
        assertChanged(res.target_cinfo);
    }

    @Test
    void renameAcrossDirectoriesReportsBothChanges() throws Exception {
        Inode from = h.mkdir(root, "from");
        Inode to = h.mkdir(root, "to");
        Inode f = h.file(from, "f");
        long fromBefore = h.fs.getattr(from).change();
        long toBefore = h.fs.getattr(to).change();
        h.putfh(from);
        h.ok(OP_SAVEFH, null);
        h.putfh(to);
        RENAME4resok res = h.ok(OP_RENAME, new RENAME4args("f", "g"), RENAME4resok.class);
        assertThat(h.fs.lookup(to, "g")).isEqualTo(f);
        assertThat(res.source_cinfo.before).isEqualTo(fromBefore);
        assertThat(res.source_cinfo.after).isEqualTo(h.fs.getattr(from).change());
        assertThat(res.target_cinfo.before).isEqualTo(toBefore);
        assertThat(res.target_cinfo.after).isEqualTo(h.fs.getattr(to).change());
        assertChanged(res.source_cinfo);
        assertChanged(res.target_cinfo);
    }

    @Test
    void renameOverAnExistingFileReplacesIt() throws Exception {
        Inode a = h.file(root, "a");
        Inode b = h.file(root, "b");
        h.putroot();
        h.ok(OP_SAVEFH, null);
        h.ok(OP_RENAME, new RENAME4args("a", "b"), RENAME4resok.class);
        assertThat(h.fs.lookup(root, "b")).isEqualTo(a);
        assertThat(exists(root, "a")).isFalse();
        h.putroot();
        assertThat(h.status(OP_PUTFH, new org.tcnfs.nfs4.xdr.PUTFH4args(new org.tcnfs.nfs4.xdr.nfs_fh4(b.toBytes()))))
                .as("the replaced file is gone").isEqualTo(NfsStatus.STALE);
    }

    @Test
    void renameOfADirectoryOverANonEmptyDirectoryIsExist() throws Exception {
        h.mkdir(root, "a");
        h.file(h.mkdir(root, "b"), "x");
        h.putroot();
        h.ok(OP_SAVEFH, null);
        assertThat(h.status(OP_RENAME, new RENAME4args("a", "b"))).isEqualTo(NfsStatus.EXIST);
    }

    @Test
    void renameOfAFileOverADirectoryIsExist() throws Exception {
        h.file(root, "f");
        h.mkdir(root, "d");
        h.putroot();
        h.ok(OP_SAVEFH, null);
        assertThat(h.status(OP_RENAME, new RENAME4args("f", "d"))).isEqualTo(NfsStatus.EXIST);
        assertThat(exists(root, "f")).isTrue();
    }

    @Test
    void renameOfADirectoryIntoItselfIsInval() throws Exception {
        Inode a = h.mkdir(root, "a");
        Inode b = h.mkdir(a, "b");
        h.putroot();
        h.ok(OP_SAVEFH, null);
        h.putfh(b);
        assertThat(h.status(OP_RENAME, new RENAME4args("a", "x"))).isEqualTo(NfsStatus.INVAL);
        h.putfh(a);
        assertThat(h.status(OP_RENAME, new RENAME4args("a", "x"))).isEqualTo(NfsStatus.INVAL);
        assertThat(h.fs.lookup(root, "a")).isEqualTo(a);
    }

    @Test
    void renameOntoAnotherLinkOfTheSameFileChangesNothing() throws Exception {
        Inode f = h.file(root, "f");
        h.fs.link(f, root, "g");
        h.putroot();
        h.ok(OP_SAVEFH, null);
        h.ok(OP_RENAME, new RENAME4args("f", "g"), RENAME4resok.class);
        assertThat(h.fs.lookup(root, "f")).isEqualTo(f);
        assertThat(h.fs.lookup(root, "g")).isEqualTo(f);
        h.ok(OP_RENAME, new RENAME4args("f", "f"), RENAME4resok.class);
        assertThat(h.fs.lookup(root, "f")).isEqualTo(f);
    }

    @Test
    void renameOfMissingNameIsNoEnt() throws Exception {
        h.putroot();
        h.ok(OP_SAVEFH, null);
        assertThat(h.status(OP_RENAME, new RENAME4args("missing", "x"))).isEqualTo(NfsStatus.NOENT);
    }

    @Test
    void renameWithoutSavedHandleIsNoFileHandle() throws Exception {
        h.file(root, "f");
        h.putroot();
        assertThat(h.status(OP_RENAME, new RENAME4args("f", "g"))).isEqualTo(NfsStatus.NOFILEHANDLE);
    }

    @Test
    void renameRefusesBadNamesOnEitherSide() throws Exception {
        h.file(root, "f");
        h.putroot();
        h.ok(OP_SAVEFH, null);
        assertThat(h.status(OP_RENAME, new RENAME4args("f", ".."))).isEqualTo(NfsStatus.BADNAME);
        assertThat(h.status(OP_RENAME, new RENAME4args(".", "g"))).isEqualTo(NfsStatus.BADNAME);
        assertThat(h.status(OP_RENAME, new RENAME4args("f", "x/y"))).isEqualTo(NfsStatus.BADCHAR);
        assertThat(h.status(OP_RENAME, new RENAME4args("", "g"))).isEqualTo(NfsStatus.INVAL);
        assertThat(h.status(OP_RENAME, new RENAME4args("f", "n".repeat(256)))).isEqualTo(NfsStatus.NAMETOOLONG);
        assertThat(exists(root, "f")).isTrue();
    }

    @Test
    void renameWithAFileAsEitherDirectoryIsNotDir() throws Exception {
        Inode f = h.file(root, "f");
        h.putfh(f);
        h.ok(OP_SAVEFH, null);
        h.putroot();
        assertThat(h.status(OP_RENAME, new RENAME4args("x", "y"))).isEqualTo(NfsStatus.NOTDIR);
        h.putroot();
        h.ok(OP_SAVEFH, null);
        h.putfh(f);
        assertThat(h.status(OP_RENAME, new RENAME4args("f", "y"))).isEqualTo(NfsStatus.NOTDIR);
    }

    // LINK

    @Test
    void linkGivesTheSavedFileASecondName() throws Exception {
        Inode f = h.file(root, "f");
        Inode d = h.mkdir(root, "d");
        h.putfh(f);
        h.ok(OP_SAVEFH, null);
        h.putfh(d);
        LINK4resok res = h.ok(OP_LINK, new LINK4args("g"), LINK4resok.class);
        assertChanged(res.cinfo);
        assertThat(h.fs.lookup(d, "g")).isEqualTo(f);
        assertThat(h.fs.getattr(f).nlink()).isEqualTo(2);
        assertThat(h.currentHandle()).as("the directory stays current").isEqualTo(d);
    }

    @Test
    void linkOfADirectoryIsIsDir() throws Exception {
        Inode d = h.mkdir(root, "d");
        h.putfh(d);
        h.ok(OP_SAVEFH, null);
        h.putroot();
        assertThat(h.status(OP_LINK, new LINK4args("d2"))).isEqualTo(NfsStatus.ISDIR);
        assertThat(exists(root, "d2")).isFalse();
    }

    @Test
    void linkOntoATakenNameIsExist() throws Exception {
        Inode f = h.file(root, "f");
        h.file(root, "g");
        h.putfh(f);
        h.ok(OP_SAVEFH, null);
        h.putroot();
        assertThat(h.status(OP_LINK, new LINK4args("g"))).isEqualTo(NfsStatus.EXIST);
    }

    @Test
    void linkIntoAFileIsNotDir() throws Exception {
        Inode f = h.file(root, "f");
        h.putfh(f);
        h.ok(OP_SAVEFH, null);
        assertThat(h.status(OP_LINK, new LINK4args("g"))).isEqualTo(NfsStatus.NOTDIR);
    }

    @Test
    void linkWithoutSavedHandleIsNoFileHandle() throws Exception {
        h.putroot();
        assertThat(h.status(OP_LINK, new LINK4args("g"))).isEqualTo(NfsStatus.NOFILEHANDLE);
    }

    @Test
    void linkRefusesBadNames() throws Exception {
        Inode f = h.file(root, "f");
        h.putfh(f);
        h.ok(OP_SAVEFH, null);
        h.putroot();
        assertThat(h.status(OP_LINK, new LINK4args(".."))).isEqualTo(NfsStatus.BADNAME);
        assertThat(h.status(OP_LINK, new LINK4args("a\0"))).isEqualTo(NfsStatus.BADCHAR);
        assertThat(h.fs.getattr(f).nlink()).isEqualTo(1);
    }

    // READLINK

    @Test
    void readlinkOfAFileIsInval() throws Exception {
        h.putfh(h.file(root, "f"));
        assertThat(h.status(OP_READLINK, null)).isEqualTo(NfsStatus.INVAL);
    }

    @Test
    void readlinkOfADirectoryIsInval() throws Exception {
        h.putroot();
        assertThat(h.status(OP_READLINK, null)).isEqualTo(NfsStatus.INVAL);
    }

    @Test
    void readlinkWithoutCurrentHandleIsNoFileHandle() throws Exception {
        assertThat(h.status(OP_READLINK, null)).isEqualTo(NfsStatus.NOFILEHANDLE);
    }

    // ACCESS

    @Test
    void accessReportsTheKnownRequestedBitsAsSupportedAndGranted() throws Exception {
        h.putfh(h.file(root, "f"));
        ACCESS4resok res = h.ok(OP_ACCESS, new ACCESS4args(ACCESS4args.ACCESS4_READ | ACCESS4args.ACCESS4_MODIFY),
                ACCESS4resok.class);
        assertThat(res.supported).isEqualTo(ACCESS4args.ACCESS4_READ | ACCESS4args.ACCESS4_MODIFY);
        assertThat(res.access).isEqualTo(ACCESS4args.ACCESS4_READ | ACCESS4args.ACCESS4_MODIFY);
    }

    @Test
    void accessLeavesUnknownBitsOut() throws Exception {
        h.putroot();
        ACCESS4resok res = h.ok(OP_ACCESS, new ACCESS4args(0x3f | 0x40 | 0x100 | 0x8000_0000), ACCESS4resok.class);
        assertThat(res.supported).isEqualTo(0x3f & ~ACCESS4args.ACCESS4_EXECUTE);
        assertThat(res.access).isEqualTo(0x3f & ~ACCESS4args.ACCESS4_EXECUTE);
    }

    @Test
    void accessAnswersOnlyTheBitsMeaningfulForTheObjectsType() throws Exception {
        h.putfh(h.file(root, "f"));
        ACCESS4resok file = h.ok(OP_ACCESS, new ACCESS4args(0x3f), ACCESS4resok.class);
        assertThat(file.supported).isEqualTo(ACCESS4args.ACCESS4_READ | ACCESS4args.ACCESS4_MODIFY
                | ACCESS4args.ACCESS4_EXTEND | ACCESS4args.ACCESS4_EXECUTE);

        h.putroot();
        ACCESS4resok dir = h.ok(OP_ACCESS, new ACCESS4args(ACCESS4args.ACCESS4_EXECUTE), ACCESS4resok.class);
        assertThat(dir.supported).isZero();
        assertThat(dir.access).isZero();
    }

    @Test
    void accessOfNothingIsNothing() throws Exception {
        h.putroot();
        ACCESS4resok res = h.ok(OP_ACCESS, new ACCESS4args(0), ACCESS4resok.class);
        assertThat(res.supported).isZero();
        assertThat(res.access).isZero();
    }

    @Test
    void accessOnAStaleHandleIsStale() throws Exception {
        Inode f = h.file(root, "f");
        h.putfh(f);
        h.fs.remove(root, "f");
        assertThat(h.status(OP_ACCESS, new ACCESS4args(ACCESS4args.ACCESS4_READ))).isEqualTo(NfsStatus.STALE);
        assertThat(h.status(OP_ACCESS, new ACCESS4args(0))).isEqualTo(NfsStatus.STALE);
    }

    @Test
    void accessMapsEveryRightToItsBitAndBack() {
        for (int bit = 1; bit <= 0x20; bit <<= 1) {
            assertThat(OperationACCESS.rightsOf(bit)).hasSize(1);
            assertThat(OperationACCESS.bitsOf(OperationACCESS.rightsOf(bit))).isEqualTo(bit);
        }
        assertThat(OperationACCESS.rightsOf(0x3f)).hasSize(6);
    }

    // Whole compounds through the engine

    @Test
    void compoundCreatesWalksAndRemovesThroughTheEngine() throws Exception {
        List<nfs_argop4> ops = List.of(
                new nfs_argop4(OP_PUTROOTFH, null),
                new nfs_argop4(OP_CREATE, create(nfs_ftype4.NF4DIR, "dir")),
                new nfs_argop4(OP_SAVEFH, null),
                new nfs_argop4(OP_CREATE, symlink("link", "target")),
                new nfs_argop4(OP_READLINK, null),
                new nfs_argop4(OP_RESTOREFH, null),
                new nfs_argop4(OP_LOOKUP, new LOOKUP4args("link")),
                new nfs_argop4(OP_LOOKUPP, null),
                new nfs_argop4(OP_GETFH, null));
        COMPOUND4res res = h.compound(0, ops);
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.SYMLINK);
        assertThat(res.resarray).hasSize(8);
        assertThat(new String(((READLINK4resok) res.resarray[4].body).link, StandardCharsets.UTF_8))
                .isEqualTo("target");

        List<nfs_argop4> fine = List.of(
                new nfs_argop4(OP_PUTROOTFH, null),
                new nfs_argop4(OP_LOOKUP, new LOOKUP4args("dir")),
                new nfs_argop4(OP_REMOVE, new REMOVE4args("link")),
                new nfs_argop4(OP_GETFH, null));
        COMPOUND4res ok = h.compound(0, fine);
        assertThat(NfsStatus.of(ok.status)).isEqualTo(NfsStatus.OK);
        assertThat(ok.resarray).hasSize(4);
        assertThat(((GETFH4resok) ok.resarray[3].body).object.value).isEqualTo(h.fs.lookup(root, "dir").toBytes());
        assertThat(exists(h.fs.lookup(root, "dir"), "link")).isFalse();
    }

    @Test
    void compoundStopsAtTheFirstFailure() throws Exception {
        COMPOUND4res res = h.compound(0, List.of(
                new nfs_argop4(OP_PUTROOTFH, null),
                new nfs_argop4(OP_LOOKUP, new LOOKUP4args("missing")),
                new nfs_argop4(OP_CREATE, create(nfs_ftype4.NF4DIR, "never"))));
        assertThat(NfsStatus.of(res.status)).isEqualTo(NfsStatus.NOENT);
        assertThat(res.resarray).hasSize(2);
        assertThat(exists(root, "never")).isFalse();
    }
}
