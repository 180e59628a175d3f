package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.PUTFH4args;
import org.tcnfs.nfs4.xdr.SECINFO4args;
import org.tcnfs.nfs4.xdr.SECINFO4resok;
import org.tcnfs.nfs4.xdr.SECINFO_NO_NAME4args;
import org.tcnfs.nfs4.xdr.XdrRoundTrip;
import org.tcnfs.nfs4.xdr.nfs_fh4;
import org.tcnfs.nfs4.xdr.secinfo4;
import org.tcnfs.nfs4.xdr.secinfo_style4;

/** PUTROOTFH, PUTPUBFH, PUTFH, GETFH, SAVEFH, RESTOREFH, LOOKUP, LOOKUPP, SECINFO, SECINFO_NO_NAME. */
class FilehandleOperationsTest {
    private final OpHarness h = new OpHarness(1);
    private final Inode root = h.fs.getRootInode();

    private NfsStatus putfh(byte[] handle) throws Exception {
        return h.status(OP_PUTFH, new PUTFH4args(new nfs_fh4(handle)));
    }

    @Test
    void putrootfhMakesTheRootCurrent() throws Exception {
        h.ok(OP_PUTROOTFH, null);
        assertThat(h.currentHandle()).isEqualTo(root);
    }

    @Test
    void putpubfhIsTheRoot() throws Exception {
        h.ok(OP_PUTPUBFH, null);
        assertThat(h.currentHandle()).isEqualTo(root);
    }

    @Test
    void putfhMakesTheHandleCurrent() throws Exception {
        Inode dir = h.mkdir(root, "d");
        assertThat(putfh(dir.toBytes())).isEqualTo(NfsStatus.OK);
        assertThat(h.currentHandle()).isEqualTo(dir);
    }

    @Test
    void putfhOfAnEmptyHandleIsBadHandle() throws Exception {
        assertThat(putfh(new byte[0])).isEqualTo(NfsStatus.BADHANDLE);
        assertThat(h.context.hasCurrentInode()).isFalse();
    }

    @Test
    void putfhOfAMalformedHandleIsBadHandle() throws Exception {
        assertThat(putfh(new byte[] {1, 2, 3, 4, 5})).isEqualTo(NfsStatus.BADHANDLE);
    }

    @Test
    void putfhOfAnUnknownHandleIsStale() throws Exception {
        byte[] forged = new byte[16];
        forged[0] = 42;
        assertThat(putfh(forged)).isEqualTo(NfsStatus.STALE);
    }

    @Test
    void putfhOfARemovedObjectIsStale() throws Exception {
        Inode f = h.file(root, "gone");
        h.fs.remove(root, "gone");
        assertThat(putfh(f.toBytes())).isEqualTo(NfsStatus.STALE);
    }

    @Test
    void handleThatGoesStaleAfterPutfhIsStaleForTheNextOperation() throws Exception {
        Inode dir = h.mkdir(root, "d");
        h.putfh(dir);
        h.fs.remove(root, "d");
        assertThat(h.status(OP_LOOKUP, new LOOKUP4args("x"))).isEqualTo(NfsStatus.STALE);
        assertThat(h.status(OP_LOOKUPP, null)).isEqualTo(NfsStatus.STALE);
    }

    @Test
    void getfhWithoutCurrentHandleIsNoFileHandle() throws Exception {
        assertThat(h.status(OP_GETFH, null)).isEqualTo(NfsStatus.NOFILEHANDLE);
        assertThat(h.status(OP_LOOKUP, new LOOKUP4args("x"))).isEqualTo(NfsStatus.NOFILEHANDLE);
        assertThat(h.status(OP_LOOKUPP, null)).isEqualTo(NfsStatus.NOFILEHANDLE);
    }

    @Test
    void restorefhBringsBackTheSavedHandle() throws Exception {
        Inode a = h.mkdir(root, "a");
        Inode b = h.mkdir(root, "b");
        h.putfh(a);
        h.ok(OP_SAVEFH, null);
        h.putfh(b);
        assertThat(h.currentHandle()).isEqualTo(b);
        h.ok(OP_RESTOREFH, null);
        assertThat(h.currentHandle()).isEqualTo(a);
    }

    @Test
    void restorefhWithoutSavefhIsRestoreFh() throws Exception {
        h.putroot();
        assertThat(h.status(OP_RESTOREFH, null)).isEqualTo(NfsStatus.RESTOREFH);
    }

    @Test
    void savefhWithoutCurrentHandleIsNoFileHandle() throws Exception {
        assertThat(h.status(OP_SAVEFH, null)).isEqualTo(NfsStatus.NOFILEHANDLE);
    }

    @Test
    void lookupMakesTheNamedObjectCurrent() throws Exception {
        Inode dir = h.mkdir(root, "dir");
        Inode f = h.file(dir, "Grüße.txt");
        h.putroot();
        h.ok(OP_LOOKUP, new LOOKUP4args("dir"));
        h.ok(OP_LOOKUP, new LOOKUP4args("Grüße.txt"));
        assertThat(h.currentHandle()).isEqualTo(f);
    }

    @Test
    void lookupOfMissingNameIsNoEnt() throws Exception {
        h.putroot();
        assertThat(h.status(OP_LOOKUP, new LOOKUP4args("missing"))).isEqualTo(NfsStatus.NOENT);
        assertThat(h.currentHandle()).as("a failed LOOKUP leaves the current handle").isEqualTo(root);
    }

    @ParameterizedTest(name = "[{index}] \"{0}\" -> {1}")
    @CsvSource({"'', INVAL", "., BADNAME", "'..', BADNAME", "a/b, BADCHAR", "/, BADCHAR"})
    void lookupRefusesBadNames(String name, NfsStatus expected) throws Exception {
        h.mkdir(root, "a");
        h.putroot();
        assertThat(h.status(OP_LOOKUP, new LOOKUP4args(name))).isEqualTo(expected);
    }

    @Test
    void lookupOfNameWithNulIsBadChar() throws Exception {
        h.putroot();
        assertThat(h.status(OP_LOOKUP, new LOOKUP4args("a\0b"))).isEqualTo(NfsStatus.BADCHAR);
    }

    @Test
    void lookupOfNameOver255BytesIsNameTooLong() throws Exception {
        h.putroot();
        assertThat(h.status(OP_LOOKUP, new LOOKUP4args("n".repeat(256)))).isEqualTo(NfsStatus.NAMETOOLONG);
    }

    @Test
    void lookupOfNameThatIsNotUtf8IsInval() throws Exception {
        h.putroot();
        byte[] raw = XdrRoundTrip.bytes(xdr -> {
            xdr.xdrEncodeInt(OP_LOOKUP);
            xdr.xdrEncodeDynamicOpaque(new byte[] {'x', (byte) 0xff, (byte) 0xfe});
        });
        assertThat(NfsStatus.of(h.runRaw(raw).status)).isEqualTo(NfsStatus.INVAL);
    }

    @Test
    void lookupInAFileIsNotDir() throws Exception {
        h.putfh(h.file(root, "f"));
        assertThat(h.status(OP_LOOKUP, new LOOKUP4args("x"))).isEqualTo(NfsStatus.NOTDIR);
    }

    @Test
    void lookupInASymlinkIsSymlink() throws Exception {
        h.putfh(h.fs.symlink(root, "l", "/elsewhere", Credential.ROOT, 0777));
        assertThat(h.status(OP_LOOKUP, new LOOKUP4args("x"))).isEqualTo(NfsStatus.SYMLINK);
    }

    @Test
    void lookuppMakesTheParentCurrent() throws Exception {
        Inode a = h.mkdir(root, "a");
        Inode b = h.mkdir(a, "b");
        h.putfh(b);
        h.ok(OP_LOOKUPP, null);
        assertThat(h.currentHandle()).isEqualTo(a);
        h.ok(OP_LOOKUPP, null);
        assertThat(h.currentHandle()).isEqualTo(root);
    }

    @Test
    void lookuppAtTheRootIsNoEnt() throws Exception {
        h.putroot();
        assertThat(h.status(OP_LOOKUPP, null)).isEqualTo(NfsStatus.NOENT);
    }

    @Test
    void lookuppOfAFileIsNotDir() throws Exception {
        h.putfh(h.file(root, "f"));
        assertThat(h.status(OP_LOOKUPP, null)).isEqualTo(NfsStatus.NOTDIR);
    }

    @Test
    void secinfoOffersAuthSysAndConsumesTheCurrentHandle() throws Exception {
        h.file(root, "f");
        h.putroot();
        SECINFO4resok res = h.ok(OP_SECINFO, new SECINFO4args("f"), SECINFO4resok.class);
        assertThat(res.value).extracting(s -> s.flavor).containsExactly(secinfo4.AUTH_SYS);
        assertThat(h.context.hasCurrentInode()).isFalse();
        assertThat(h.status(OP_GETFH, null)).isEqualTo(NfsStatus.NOFILEHANDLE);
    }

    @Test
    void secinfoInNfs40KeepsTheCurrentHandle() throws Exception {
        OpHarness v40 = new OpHarness(0);
        v40.fs.create(v40.fs.getRootInode(), "f", Credential.ROOT, 0644);
        v40.putroot();
        v40.ok(OP_SECINFO, new SECINFO4args("f"), SECINFO4resok.class);
        assertThat(v40.status(OP_GETFH, null)).isEqualTo(NfsStatus.OK);
    }

    @Test
    void secinfoOfMissingNameIsNoEnt() throws Exception {
        h.putroot();
        assertThat(h.status(OP_SECINFO, new SECINFO4args("missing"))).isEqualTo(NfsStatus.NOENT);
        assertThat(h.context.hasCurrentInode()).as("a failed SECINFO consumes nothing").isTrue();
    }

    @Test
    void secinfoOfDotDotIsBadName() throws Exception {
        h.putroot();
        assertThat(h.status(OP_SECINFO, new SECINFO4args(".."))).isEqualTo(NfsStatus.BADNAME);
    }

    @Test
    void secinfoInAFileIsNotDir() throws Exception {
        h.putfh(h.file(root, "f"));
        assertThat(h.status(OP_SECINFO, new SECINFO4args("x"))).isEqualTo(NfsStatus.NOTDIR);
    }

    @Test
    void secinfoNoNameOfTheCurrentObjectOffersAuthSysAndConsumesTheHandle() throws Exception {
        h.putfh(h.file(root, "f"));
        SECINFO4resok res = h.ok(OP_SECINFO_NO_NAME,
                new SECINFO_NO_NAME4args(secinfo_style4.SECINFO_STYLE4_CURRENT_FH), SECINFO4resok.class);
        assertThat(res.value).extracting(s -> s.flavor).containsExactly(secinfo4.AUTH_SYS);
        assertThat(h.status(OP_GETFH, null)).isEqualTo(NfsStatus.NOFILEHANDLE);
    }

    @Test
    void secinfoNoNameOfTheParentWorksBelowTheRoot() throws Exception {
        h.putfh(h.mkdir(root, "d"));
        h.ok(OP_SECINFO_NO_NAME, new SECINFO_NO_NAME4args(secinfo_style4.SECINFO_STYLE4_PARENT), SECINFO4resok.class);
        assertThat(h.context.hasCurrentInode()).isFalse();
    }

    @Test
    void secinfoNoNameOfTheParentOfTheRootIsNoEnt() throws Exception {
        h.putroot();
        assertThat(h.status(OP_SECINFO_NO_NAME, new SECINFO_NO_NAME4args(secinfo_style4.SECINFO_STYLE4_PARENT)))
                .isEqualTo(NfsStatus.NOENT);
    }

    @Test
    void secinfoNoNameOfTheParentOfAFileIsNotDir() throws Exception {
        h.putfh(h.file(root, "f"));
        assertThat(h.status(OP_SECINFO_NO_NAME, new SECINFO_NO_NAME4args(secinfo_style4.SECINFO_STYLE4_PARENT)))
                .isEqualTo(NfsStatus.NOTDIR);
    }

    @Test
    void secinfoNoNameWithAnUnknownStyleIsBadXdr() throws Exception {
        h.putroot();
        assertThat(h.status(OP_SECINFO_NO_NAME, new SECINFO_NO_NAME4args(7))).isEqualTo(NfsStatus.BADXDR);
    }

    @Test
    void secinfoNoNameWithoutCurrentHandleIsNoFileHandle() throws Exception {
        assertThat(h.status(OP_SECINFO_NO_NAME, new SECINFO_NO_NAME4args(secinfo_style4.SECINFO_STYLE4_CURRENT_FH)))
                .isEqualTo(NfsStatus.NOFILEHANDLE);
    }
}
