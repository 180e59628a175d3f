package org.tcnfs.nfs4.xdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tcnfs.nfs4.xdr.XdrRoundTrip.decode;
import static org.tcnfs.nfs4.xdr.XdrRoundTrip.encode;
import static org.tcnfs.nfs4.xdr.XdrRoundTrip.roundTrip;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.BadXdrOncRpcException;
import org.junit.jupiter.api.Test;

/** Round trips of the file handle and name space wire types, and their decoding bounds. */
class NamespaceXdrTest {

    /** The XDR of an int followed by an opaque holding {@code bytes}. */
    private static byte[] intAndOpaque(int first, byte[] bytes) throws IOException {
        return XdrRoundTrip.bytes(xdr -> {
            xdr.xdrEncodeInt(first);
            xdr.xdrEncodeDynamicOpaque(bytes);
        });
    }

    @Test
    void putfhArgsRoundTrip() throws Exception {
        byte[] fh = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
        PUTFH4args back = roundTrip(new PUTFH4args(new nfs_fh4(fh)), new PUTFH4args());
        assertThat(back.object.value).isEqualTo(fh);
    }

    @Test
    void handleOf128BytesDecodesAnd129DoesNot() throws Exception {
        assertThat(roundTrip(new PUTFH4args(new nfs_fh4(new byte[128])), new PUTFH4args()).object.value)
                .hasSize(128);
        byte[] tooLong = encode(new PUTFH4args(new nfs_fh4(new byte[129])));
        assertThatThrownBy(() -> decode(tooLong, new PUTFH4args())).isInstanceOfAny(OncRpcException.class, BadXdrOncRpcException.class);
    }

    @Test
    void getfhResultRoundTrip() throws Exception {
        byte[] fh = {9, 8, 7};
        assertThat(roundTrip(new GETFH4resok(new nfs_fh4(fh)), new GETFH4resok()).object.value).isEqualTo(fh);
    }

    @Test
    void componentNamesRoundTrip() throws Exception {
        assertThat(roundTrip(new LOOKUP4args("Grüße"), new LOOKUP4args()).objname).isEqualTo("Grüße");
        assertThat(roundTrip(new SECINFO4args("s"), new SECINFO4args()).name).isEqualTo("s");
        assertThat(roundTrip(new REMOVE4args("r"), new REMOVE4args()).target).isEqualTo("r");
        assertThat(roundTrip(new LINK4args("l"), new LINK4args()).newname).isEqualTo("l");
        RENAME4args rename = roundTrip(new RENAME4args("old", "new"), new RENAME4args());
        assertThat(rename.oldname).isEqualTo("old");
        assertThat(rename.newname).isEqualTo("new");
    }

    @Test
    void componentNameThatIsNotUtf8DecodesAsNull() throws Exception {
        byte[] bytes = XdrRoundTrip.bytes(xdr -> xdr.xdrEncodeDynamicOpaque(new byte[] {'a', (byte) 0xc3}));
        assertThat(decode(bytes, new LOOKUP4args()).objname).isNull();
    }

    @Test
    void nameLongerThanTheStringBoundDoesNotDecode() throws Exception {
        byte[] huge = encode(new LOOKUP4args("n".repeat(XdrSupport.MAX_STRING + 1)));
        assertThatThrownBy(() -> decode(huge, new LOOKUP4args())).isInstanceOfAny(OncRpcException.class, BadXdrOncRpcException.class);
    }

    @Test
    void secinfoResultRoundTripIncludingGss() throws Exception {
        secinfo4 gss = new secinfo4(secinfo4.RPCSEC_GSS);
        gss.flavor_info = new rpcsec_gss_info();
        gss.flavor_info.oid = new byte[] {0x2a, (byte) 0x86, 0x48};
        gss.flavor_info.qop = 7;
        gss.flavor_info.service = rpcsec_gss_info.RPC_GSS_SVC_PRIVACY;
        SECINFO4resok back = roundTrip(new SECINFO4resok(new secinfo4[] {new secinfo4(secinfo4.AUTH_SYS), gss}),
                new SECINFO4resok());
        assertThat(back.value).hasSize(2);
        assertThat(back.value[0].flavor).isEqualTo(secinfo4.AUTH_SYS);
        assertThat(back.value[0].flavor_info).isNull();
        assertThat(back.value[1].flavor_info.oid).containsExactly(0x2a, (byte) 0x86, 0x48);
        assertThat(back.value[1].flavor_info.qop).isEqualTo(7);
        assertThat(back.value[1].flavor_info.service).isEqualTo(rpcsec_gss_info.RPC_GSS_SVC_PRIVACY);
    }

    @Test
    void secinfoNoNameArgsRoundTrip() throws Exception {
        assertThat(roundTrip(new SECINFO_NO_NAME4args(secinfo_style4.SECINFO_STYLE4_PARENT),
                new SECINFO_NO_NAME4args()).value).isEqualTo(secinfo_style4.SECINFO_STYLE4_PARENT);
    }

    @Test
    void createOfSymlinkRoundTripKeepsTheTargetBytes() throws Exception {
        createtype4 type = new createtype4(nfs_ftype4.NF4LNK);
        type.linkdata = "../target".getBytes(StandardCharsets.UTF_8);
        fattr4 attrs = new fattr4(new bitmap4(new int[] {0, 2}), new byte[] {0, 0, 1, (byte) 0xed});
        CREATE4args back = roundTrip(new CREATE4args(type, "link", attrs), new CREATE4args());
        assertThat(back.objtype.type).isEqualTo(nfs_ftype4.NF4LNK);
        assertThat(new String(back.objtype.linkdata, StandardCharsets.UTF_8)).isEqualTo("../target");
        assertThat(back.objtype.devdata).isNull();
        assertThat(back.objname).isEqualTo("link");
        assertThat(back.createattrs.attrmask.value).containsExactly(0, 2);
        assertThat(back.createattrs.attr_vals).containsExactly(0, 0, 1, (byte) 0xed);
    }

    @Test
    void createOfDevicesRoundTripKeepsTheDeviceNumbers() throws Exception {
        for (int t : new int[] {nfs_ftype4.NF4BLK, nfs_ftype4.NF4CHR}) {
            createtype4 type = new createtype4(t);
            type.devdata = new specdata4(8, 1);
            CREATE4args back = roundTrip(new CREATE4args(type, "dev", new fattr4()), new CREATE4args());
            assertThat(back.objtype.type).isEqualTo(t);
            assertThat(back.objtype.devdata.specdata1).isEqualTo(8);
            assertThat(back.objtype.devdata.specdata2).isEqualTo(1);
            assertThat(back.objtype.linkdata).isNull();
        }
    }

    @Test
    void createOfTypesWithoutDataRoundTrip() throws Exception {
        for (int t : new int[] {nfs_ftype4.NF4DIR, nfs_ftype4.NF4SOCK, nfs_ftype4.NF4FIFO, nfs_ftype4.NF4REG, 42}) {
            CREATE4args back = roundTrip(new CREATE4args(new createtype4(t), "x", new fattr4()), new CREATE4args());
            assertThat(back.objtype.type).isEqualTo(t);
            assertThat(back.objtype.linkdata).isNull();
            assertThat(back.objtype.devdata).isNull();
        }
    }

    @Test
    void createResultRoundTrip() throws Exception {
        CREATE4resok back = roundTrip(new CREATE4resok(new change_info4(false, 5, 9), new bitmap4(new int[] {0, 2})),
                new CREATE4resok());
        assertThat(back.cinfo.atomic).isFalse();
        assertThat(back.cinfo.before).isEqualTo(5);
        assertThat(back.cinfo.after).isEqualTo(9);
        assertThat(back.attrset.value).containsExactly(0, 2);
    }

    @Test
    void removeRenameAndLinkResultsRoundTrip() throws Exception {
        assertThat(roundTrip(new REMOVE4resok(new change_info4(true, 1, 2)), new REMOVE4resok()).cinfo.after)
                .isEqualTo(2);
        assertThat(roundTrip(new LINK4resok(new change_info4(true, 3, 4)), new LINK4resok()).cinfo.atomic).isTrue();
        RENAME4resok rename = roundTrip(new RENAME4resok(new change_info4(false, 1, 2), new change_info4(true, 3, 4)),
                new RENAME4resok());
        assertThat(rename.source_cinfo.before).isEqualTo(1);
        assertThat(rename.target_cinfo.after).isEqualTo(4);
        assertThat(rename.target_cinfo.atomic).isTrue();
    }

    @Test
    void readlinkResultKeepsBytesVerbatim() throws Exception {
        byte[] link = {'/', 'x', (byte) 0xe2, (byte) 0x82, (byte) 0xac};
        assertThat(roundTrip(new READLINK4resok(link), new READLINK4resok()).link).isEqualTo(link);
    }

    @Test
    void accessArgsAndResultRoundTrip() throws Exception {
        int all = ACCESS4args.ACCESS4_READ | ACCESS4args.ACCESS4_LOOKUP | ACCESS4args.ACCESS4_MODIFY
                | ACCESS4args.ACCESS4_EXTEND | ACCESS4args.ACCESS4_DELETE | ACCESS4args.ACCESS4_EXECUTE;
        assertThat(all).isEqualTo(0x3f);
        assertThat(roundTrip(new ACCESS4args(all), new ACCESS4args()).access).isEqualTo(all);
        ACCESS4resok res = roundTrip(new ACCESS4resok(0x3f, 0x21), new ACCESS4resok());
        assertThat(res.supported).isEqualTo(0x3f);
        assertThat(res.access).isEqualTo(0x21);
    }

    @Test
    void codecsKnowEveryFilehandleAndNamespaceOperation() {
        int[] ops = {nfs_opnum4.OP_PUTROOTFH, nfs_opnum4.OP_PUTPUBFH, nfs_opnum4.OP_PUTFH, nfs_opnum4.OP_GETFH,
            nfs_opnum4.OP_SAVEFH, nfs_opnum4.OP_RESTOREFH, nfs_opnum4.OP_LOOKUP, nfs_opnum4.OP_LOOKUPP,
            nfs_opnum4.OP_SECINFO, nfs_opnum4.OP_SECINFO_NO_NAME, nfs_opnum4.OP_CREATE, nfs_opnum4.OP_REMOVE,
            nfs_opnum4.OP_RENAME, nfs_opnum4.OP_LINK, nfs_opnum4.OP_READLINK, nfs_opnum4.OP_ACCESS};
        for (int op : ops) {
            assertThat(OperationCodecs.knows(op)).as(nfs_opnum4.name(op)).isTrue();
            assertThat(OperationCodecs.newResultBody(op, 2)).as("no body after an error").isNull();
        }
        assertThat(OperationCodecs.newResultBody(nfs_opnum4.OP_GETFH, 0)).isInstanceOf(GETFH4resok.class);
        assertThat(OperationCodecs.newResultBody(nfs_opnum4.OP_SECINFO_NO_NAME, 0)).isInstanceOf(SECINFO4resok.class);
        assertThat(OperationCodecs.newArgs(nfs_opnum4.OP_READLINK)).isNull();
        assertThat(OperationCodecs.newArgs(nfs_opnum4.OP_CREATE)).isInstanceOf(CREATE4args.class);
    }

    @Test
    void truncatedCreateArgsDoNotDecode() throws Exception {
        createtype4 type = new createtype4(nfs_ftype4.NF4LNK);
        type.linkdata = "target".getBytes(StandardCharsets.UTF_8);
        byte[] full = encode(new CREATE4args(type, "name", new fattr4()));
        byte[] cut = java.util.Arrays.copyOf(full, full.length - 6);
        assertThatThrownBy(() -> decode(cut, new CREATE4args())).isInstanceOfAny(OncRpcException.class, BadXdrOncRpcException.class);
    }

    @Test
    void argopOfLookupCarriesItsName() throws Exception {
        nfs_argop4 back = decode(intAndOpaque(nfs_opnum4.OP_LOOKUP, "abc".getBytes(StandardCharsets.UTF_8)),
                new nfs_argop4());
        assertThat(back.argop).isEqualTo(nfs_opnum4.OP_LOOKUP);
        assertThat(((LOOKUP4args) back.args).objname).isEqualTo("abc");
    }
}
