package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code fattr4}: the attribute mask and the XDR-encoded values of those attributes, in bit order. */
public class fattr4 implements XdrAble {
    /** The largest encoded attribute list the server decodes. */
    public static final int MAX_ATTR_VALS = 1024 * 1024;

    public bitmap4 attrmask = new bitmap4();
    public byte[] attr_vals = new byte[0];

    public fattr4() {
    }

    public fattr4(bitmap4 attrmask, byte[] attr_vals) {
        this.attrmask = attrmask;
        this.attr_vals = attr_vals;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        attrmask.xdrEncode(xdr);
        xdr.xdrEncodeDynamicOpaque(attr_vals);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        attrmask = new bitmap4();
        attrmask.xdrDecode(xdr);
        attr_vals = XdrSupport.decodeOpaque(xdr, MAX_ATTR_VALS);
    }
}
