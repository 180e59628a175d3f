package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.ops.DataOpsHarness.statusOf;
import static org.tcnfs.nfs4.xdr.nfs4_attr.*;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.attr.Bitmaps;
import org.tcnfs.nfs4.status.IoException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.xdr.READDIR4args;
import org.tcnfs.nfs4.xdr.READDIR4resok;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.entry4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;
import org.tcnfs.nfs4.xdr.nfs_resop4;
import org.tcnfs.nfs4.xdr.verifier4;

class OperationREADDIRTest {
    private static final Credential ALICE = new Credential(1000, 100, new int[0]);
    /** What the Linux client asks for in READDIR. */
    private static final bitmap4 LINUX_ATTRS = Bitmaps.of(FATTR4_TYPE, FATTR4_CHANGE, FATTR4_SIZE, FATTR4_FSID,
            FATTR4_RDATTR_ERROR, FATTR4_FILEHANDLE, FATTR4_FILEID, FATTR4_MODE, FATTR4_NUMLINKS, FATTR4_OWNER,
            FATTR4_OWNER_GROUP, FATTR4_RAWDEV, FATTR4_SPACE_USED, FATTR4_TIME_ACCESS, FATTR4_TIME_METADATA,
            FATTR4_TIME_MODIFY, FATTR4_MOUNTED_ON_FILEID);

    private final DataOpsHarness h = new DataOpsHarness();
    private final Inode dir;

    OperationREADDIRTest() throws IOException {
        dir = h.fs.mkdir(h.fs.getRootInode(), "d", ALICE, 0755);
        h.at(dir);
    }

    private nfs_resop4 readdir(long cookie, byte[] verifier, int dircount, int maxcount, bitmap4 attrs)
            throws IOException {
        return h.run(OP_READDIR, new READDIR4args(cookie, new verifier4(verifier), dircount, maxcount, attrs));
    }

    private static READDIR4resok ok(nfs_resop4 r) {
        assertThat(statusOf(r)).isEqualTo(NfsStatus.OK);
        return (READDIR4resok) r.body;
    }

    /** Bytes READDIR4resok takes on the wire. */
    private static int encodedSize(READDIR4resok ok) throws IOException {
        Xdr xdr = new Xdr(4096);
        xdr.beginEncoding();
        ok.xdrEncode(xdr);
        return xdr.asBuffer().position();
    }

    @Test
    void emptyDirectoryIsEofWithNoEntries() throws IOException {
        READDIR4resok ok = ok(readdir(0, new byte[8], 0, 4096, LINUX_ATTRS));
        assertThat(ok.reply.entries).isEmpty();
        assertThat(ok.reply.eof).isTrue();
    }

    @Test
    void tenThousandEntriesPagedInSmallRepliesListEveryNameExactlyOnce() throws IOException {
        Set<String> created = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String name = "file-" + i;
            h.fs.create(dir, name, ALICE, 0644);
            created.add(name);
        }
        List<String> seen = new ArrayList<>();
        long cookie = 0;
        byte[] verifier = new byte[8];
        int calls = 0;
        int maxcount = 2048;
        while (true) {
            READDIR4resok ok = ok(readdir(cookie, verifier, 0, maxcount, LINUX_ATTRS));
            calls++;
            assertThat(encodedSize(ok)).isLessThanOrEqualTo(maxcount);
            for (entry4 e : ok.reply.entries) {
                seen.add(e.nameAsString());
                cookie = e.cookie;
            }
            verifier = ok.cookieverf.value;
            if (ok.reply.eof) {
                break;
            }
            assertThat(ok.reply.entries).isNotEmpty();
            assertThat(calls).isLessThan(20_000);
        }
        assertThat(seen).hasSize(10_000);
        assertThat(new HashSet<>(seen)).isEqualTo(created);
        assertThat(calls).isGreaterThan(100);
    }

    @Test
    void entriesCarryTheirAttributesAndHandles() throws IOException {
        Inode f = h.fs.create(dir, "a", ALICE, 0640);
        READDIR4resok ok = ok(readdir(0, new byte[8], 0, 8192,
                Bitmaps.of(FATTR4_TYPE, FATTR4_FILEHANDLE, FATTR4_MODE)));
        assertThat(ok.reply.entries).hasSize(1);
        entry4 e = ok.reply.entries[0];
        assertThat(e.nameAsString()).isEqualTo("a");
        assertThat(Bitmaps.toNumbers(e.attrs.attrmask)).containsExactly(FATTR4_TYPE, FATTR4_FILEHANDLE, FATTR4_MODE);
        Xdr v = new Xdr(e.attrs.attr_vals);
        v.beginDecoding();
        assertThat(v.xdrDecodeInt()).isEqualTo(nfs_ftype4.NF4REG);
        assertThat(v.xdrDecodeDynamicOpaque()).isEqualTo(f.toBytes());
        assertThat(v.xdrDecodeInt()).isEqualTo(0640);
    }

    @Test
    void replyNeverExceedsMaxcountAndResumesAfterTheLastCookie() throws IOException {
        for (int i = 0; i < 50; i++) {
            h.fs.create(dir, "n" + i, ALICE, 0644);
        }
        READDIR4resok first = ok(readdir(0, new byte[8], 0, 600, LINUX_ATTRS));
        assertThat(encodedSize(first)).isLessThanOrEqualTo(600);
        assertThat(first.reply.eof).isFalse();
        entry4 last = first.reply.entries[first.reply.entries.length - 1];
        READDIR4resok next = ok(readdir(last.cookie, first.cookieverf.value, 0, 600, LINUX_ATTRS));
        assertThat(next.reply.entries[0].nameAsString()).isNotEqualTo(last.nameAsString());
    }

    @Test
    void dircountLimitsNamesButNeverBelowOneEntry() throws IOException {
        for (int i = 0; i < 20; i++) {
            h.fs.create(dir, "name" + i, ALICE, 0644);
        }
        READDIR4resok one = ok(readdir(0, new byte[8], 1, 1 << 20, new bitmap4()));
        assertThat(one.reply.entries).hasSize(1);
        READDIR4resok all = ok(readdir(0, new byte[8], 0, 1 << 20, new bitmap4()));
        assertThat(all.reply.entries).hasSize(20);
        assertThat(all.reply.eof).isTrue();
    }

    @Test
    void emptyDirectoryFitsInSixteenBytesButNotInFifteen() throws IOException {
        assertThat(statusOf(readdir(0, new byte[8], 0, 15, new bitmap4()))).isEqualTo(NfsStatus.TOOSMALL);
        READDIR4resok res = ok(readdir(0, new byte[8], 0, 16, new bitmap4()));
        assertThat(res.reply.entries).isEmpty();
        assertThat(res.reply.eof).isTrue();
    }

    @Test
    void maxcountTooSmallForOneEntryIsTooSmall() throws IOException {
        h.fs.create(dir, "a-rather-long-name-for-an-entry", ALICE, 0644);
        assertThat(statusOf(readdir(0, new byte[8], 0, 40, LINUX_ATTRS))).isEqualTo(NfsStatus.TOOSMALL);
        assertThat(statusOf(readdir(0, new byte[8], 0, 0, LINUX_ATTRS))).isEqualTo(NfsStatus.TOOSMALL);
    }

    @Test
    void foreignCookieVerifierIsNotSame() throws IOException {
        for (int i = 0; i < 5; i++) {
            h.fs.create(dir, "x" + i, ALICE, 0644);
        }
        READDIR4resok first = ok(readdir(0, new byte[8], 0, 300, new bitmap4()));
        long cookie = first.reply.entries[0].cookie;
        byte[] forged = first.cookieverf.value.clone();
        forged[0] ^= 1;
        if (java.util.Arrays.equals(forged, new byte[8])) {
            forged[1] = 1;
        }
        assertThat(statusOf(readdir(cookie, forged, 0, 4096, new bitmap4()))).isEqualTo(NfsStatus.NOT_SAME);
    }

    @Test
    void reservedAndUnknownCookiesAreBadCookie() throws IOException {
        h.fs.create(dir, "x", ALICE, 0644);
        assertThat(statusOf(readdir(1, new byte[8], 0, 4096, new bitmap4()))).isEqualTo(NfsStatus.BAD_COOKIE);
        assertThat(statusOf(readdir(2, new byte[8], 0, 4096, new bitmap4()))).isEqualTo(NfsStatus.BAD_COOKIE);
        assertThat(statusOf(readdir(1L << 50, new byte[8], 0, 4096, new bitmap4())))
                .isEqualTo(NfsStatus.BAD_COOKIE);
    }

    @Test
    void readdirOfAFileIsNotDir() throws IOException {
        Inode f = h.fs.create(dir, "f", ALICE, 0644);
        h.at(f);
        assertThat(statusOf(readdir(0, new byte[8], 0, 4096, new bitmap4()))).isEqualTo(NfsStatus.NOTDIR);
    }

    @Test
    void askingForAWriteOnlyAttributeIsInval() throws IOException {
        assertThat(statusOf(readdir(0, new byte[8], 0, 4096, Bitmaps.of(FATTR4_TIME_ACCESS_SET))))
                .isEqualTo(NfsStatus.INVAL);
    }

    /** A view of the in-memory file system whose capacity query fails, as a broken export might. */
    private static VirtualFileSystem failingFsStat(VirtualFileSystem fs) {
        return (VirtualFileSystem) Proxy.newProxyInstance(VirtualFileSystem.class.getClassLoader(),
                new Class<?>[] {VirtualFileSystem.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getFsStat")) {
                        throw new IoException("capacity unknown");
                    }
                    try {
                        return method.invoke(fs, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void anEntryWhoseAttributesFailCarriesRdattrErrorWhenAskedFor() throws IOException {
        h.fs.create(dir, "a", ALICE, 0644);
        DataOpsHarness broken = new DataOpsHarness(h.fs, failingFsStat(h.fs));
        broken.at(dir);
        nfs_resop4 r = broken.run(OP_READDIR, new READDIR4args(0, new verifier4(), 0, 4096,
                Bitmaps.of(FATTR4_RDATTR_ERROR, FATTR4_TYPE, FATTR4_SPACE_TOTAL)));
        READDIR4resok ok = ok(r);
        assertThat(ok.reply.entries).hasSize(1);
        entry4 e = ok.reply.entries[0];
        assertThat(Bitmaps.toNumbers(e.attrs.attrmask)).containsExactly(FATTR4_RDATTR_ERROR);
        Xdr v = new Xdr(e.attrs.attr_vals);
        v.beginDecoding();
        assertThat(v.xdrDecodeInt()).isEqualTo(NfsStatus.IO.code());
    }

    @Test
    void anEntryWhoseAttributesFailFailsTheOperationWithoutRdattrError() throws IOException {
        h.fs.create(dir, "a", ALICE, 0644);
        DataOpsHarness broken = new DataOpsHarness(h.fs, failingFsStat(h.fs));
        broken.at(dir);
        nfs_resop4 r = broken.run(OP_READDIR, new READDIR4args(0, new verifier4(), 0, 4096,
                Bitmaps.of(FATTR4_TYPE, FATTR4_SPACE_TOTAL)));
        assertThat(statusOf(r)).isEqualTo(NfsStatus.IO);
    }
}
