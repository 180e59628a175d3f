package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code entry4} without its {@code nextentry} link ({@link dirlist4} holds the entries as an array): one
 * directory entry of a READDIR reply.
 */
public class entry4 implements XdrAble {
    /** {@code nfs_cookie4}: where to resume after this entry. */
    public long cookie;
    /** The {@code component4} bytes (UTF-8). */
    public byte[] name = new byte[0];
    public fattr4 attrs = new fattr4();

    public entry4() {
    }

    public entry4(long cookie, byte[] name, fattr4 attrs) {
        this.cookie = cookie;
        this.name = name;
        this.attrs = attrs;
    }

    /** The name as a string (invalid UTF-8 shows as replacement characters). */
    public String nameAsString() {
        return new String(name, StandardCharsets.UTF_8);
    }

    /** Bytes this entry takes in a reply, with the "value follows" flag before it. */
    public int encodedSize() {
        return 4 + 8 + 4 + pad(name.length) + 4 + 4 * attrs.attrmask.value.length + 4 + pad(attrs.attr_vals.length);
    }

    private static int pad(int n) {
        return (n + 3) & ~3;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeLong(cookie);
        xdr.xdrEncodeDynamicOpaque(name);
        attrs.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        cookie = xdr.xdrDecodeLong();
        name = XdrSupport.decodeOpaque(xdr, XdrSupport.MAX_STRING);
        attrs = new fattr4();
        attrs.xdrDecode(xdr);
    }
}
