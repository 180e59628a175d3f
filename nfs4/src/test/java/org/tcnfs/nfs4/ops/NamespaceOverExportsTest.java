package org.tcnfs.nfs4.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tcnfs.nfs4.xdr.nfs_opnum4.*;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tcnfs.nfs4.export.Export;
import org.tcnfs.nfs4.export.ExportOptions;
import org.tcnfs.nfs4.export.ExportRule;
import org.tcnfs.nfs4.export.ExportTable;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.memory.InMemoryFileSystem;
import org.tcnfs.nfs4.xdr.ACCESS4args;
import org.tcnfs.nfs4.xdr.ACCESS4resok;
import org.tcnfs.nfs4.xdr.CREATE4args;
import org.tcnfs.nfs4.xdr.CREATE4resok;
import org.tcnfs.nfs4.xdr.LINK4args;
import org.tcnfs.nfs4.xdr.LOOKUP4args;
import org.tcnfs.nfs4.xdr.RENAME4args;
import org.tcnfs.nfs4.xdr.bitmap4;
import org.tcnfs.nfs4.xdr.createtype4;
import org.tcnfs.nfs4.xdr.fattr4;
import org.tcnfs.nfs4.xdr.nfs_ftype4;

/**
 * The name space operations as a non-root caller sees them through the exports view ({@code PseudoFs}):
 * create attributes, permission-narrowed ACCESS, and operations that would join two exports.
 */
class NamespaceOverExportsTest {
    private static final Credential ALICE = new Credential(1000, 1000, new int[0]);
    private static final int FATTR4_MODE = 33;
    private static final int FATTR4_OWNER = 36;

    private final InMemoryFileSystem other = new InMemoryFileSystem();
    private final OpHarness h = new OpHarness(1, ALICE, fs -> new ExportTable(List.of(
            new Export("/a", fs, List.of(ExportRule.everyone(ExportOptions.TRUSTED))),
            new Export("/b", other, List.of(ExportRule.everyone(ExportOptions.TRUSTED))))));
    private final Inode rootA = h.fs.getRootInode();

    NamespaceOverExportsTest() throws Exception {
        h.fs.setattr(rootA, SetAttributes.NONE.withMode(0777));
        other.setattr(other.getRootInode(), SetAttributes.NONE.withMode(0777));
    }

    private void intoExport(String name) throws Exception {
        h.putroot();
        h.ok(OP_LOOKUP, new LOOKUP4args(name));
    }

    private static byte[] xdrInt(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    private static byte[] xdrString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[4 + (b.length + 3) / 4 * 4];
        System.arraycopy(xdrInt(b.length), 0, out, 0, 4);
        System.arraycopy(b, 0, out, 4, b.length);
        return out;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private boolean exists(Inode dir, String name) throws Exception {
        try {
            h.fs.lookup(dir, name);
            return true;
        } catch (NfsException e) {
            return false;
        }
    }

    @Test
    void createUsesTheModeSentAndReportsItInAttrset() throws Exception {
        intoExport("a");
        fattr4 attrs = new fattr4(new bitmap4(new int[] {0, 1 << (FATTR4_MODE - 32)}), xdrInt(0700));
        CREATE4resok res = h.ok(OP_CREATE, new CREATE4args(new createtype4(nfs_ftype4.NF4DIR), "private", attrs),
                CREATE4resok.class);
        Inode dir = h.fs.lookup(rootA, "private");
        assertThat(h.fs.getattr(dir).mode()).isEqualTo(0700);
        assertThat(h.fs.getattr(dir).uid()).as("owned by the caller").isEqualTo(1000);
        assertThat(res.attrset.value).containsExactly(0, 1 << (FATTR4_MODE - 32));
    }

    @Test
    void createWithAnOwnerTheCallerMayNotGiveIsPermAndLeavesNothingBehind() throws Exception {
        intoExport("a");
        fattr4 attrs = new fattr4(
                new bitmap4(new int[] {0, (1 << (FATTR4_MODE - 32)) | (1 << (FATTR4_OWNER - 32))}),
                concat(xdrInt(0755), xdrString("0")));
        long before = h.fs.getattr(rootA).change();
        assertThat(h.status(OP_CREATE, new CREATE4args(new createtype4(nfs_ftype4.NF4DIR), "d", attrs)))
                .isEqualTo(NfsStatus.PERM);
        assertThat(exists(rootA, "d")).as("the new directory was removed again").isFalse();
        assertThat(h.fs.getattr(rootA).change()).isNotEqualTo(before); // created and removed: not atomic
    }

    @Test
    void createWithASizeIsInvalAndCreatesNothing() throws Exception {
        intoExport("a");
        fattr4 attrs = new fattr4(new bitmap4(new int[] {1 << 4}), concat(xdrInt(0), xdrInt(10)));
        assertThat(h.status(OP_CREATE, new CREATE4args(new createtype4(nfs_ftype4.NF4DIR), "d", attrs)))
                .isEqualTo(NfsStatus.INVAL);
        assertThat(exists(rootA, "d")).isFalse();
    }

    @Test
    void accessGrantsOnlyWhatThePermissionsAllow() throws Exception {
        h.fs.create(rootA, "rootsfile", Credential.ROOT, 0644);
        intoExport("a");
        h.ok(OP_LOOKUP, new LOOKUP4args("rootsfile"));
        int asked = ACCESS4args.ACCESS4_READ | ACCESS4args.ACCESS4_MODIFY | ACCESS4args.ACCESS4_EXTEND;
        ACCESS4resok res = h.ok(OP_ACCESS, new ACCESS4args(asked), ACCESS4resok.class);
        assertThat(res.supported).isEqualTo(asked);
        assertThat(res.access).isEqualTo(ACCESS4args.ACCESS4_READ);
    }

    @Test
    void renameAcrossExportsIsXDev() throws Exception {
        h.fs.create(rootA, "f", ALICE, 0644);
        intoExport("a");
        h.ok(OP_SAVEFH, null);
        intoExport("b");
        assertThat(h.status(OP_RENAME, new RENAME4args("f", "g"))).isEqualTo(NfsStatus.XDEV);
        assertThat(exists(rootA, "f")).isTrue();
    }

    @Test
    void linkAcrossExportsIsXDev() throws Exception {
        h.fs.create(rootA, "f", ALICE, 0644);
        intoExport("a");
        h.ok(OP_LOOKUP, new LOOKUP4args("f"));
        h.ok(OP_SAVEFH, null);
        intoExport("b");
        assertThat(h.status(OP_LINK, new LINK4args("g"))).isEqualTo(NfsStatus.XDEV);
    }

    @Test
    void createInThePseudoRootIsRoFs() throws Exception {
        h.putroot();
        assertThat(h.status(OP_CREATE, new CREATE4args(new createtype4(nfs_ftype4.NF4DIR), "c", new fattr4())))
                .isEqualTo(NfsStatus.ROFS);
    }

    @Test
    void lookuppFromAnExportRootLeadsToThePseudoRoot() throws Exception {
        h.putroot();
        Inode pseudoRoot = Inode.of(h.ok(OP_GETFH, null, org.tcnfs.nfs4.xdr.GETFH4resok.class).object.value);
        h.ok(OP_LOOKUP, new LOOKUP4args("a"));
        h.ok(OP_LOOKUPP, null);
        assertThat(Inode.of(h.ok(OP_GETFH, null, org.tcnfs.nfs4.xdr.GETFH4resok.class).object.value))
                .isEqualTo(pseudoRoot);
        assertThat(h.status(OP_LOOKUPP, null)).isEqualTo(NfsStatus.NOENT);
    }
}
