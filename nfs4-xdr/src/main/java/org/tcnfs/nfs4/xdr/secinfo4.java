package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code secinfo4}: one security flavor; RPCSEC_GSS carries its mechanism details. */
public class secinfo4 implements XdrAble {
    /** {@code AUTH_NONE}. */
    public static final int AUTH_NONE = 0;
    /** {@code AUTH_SYS}. */
    public static final int AUTH_SYS = 1;
    /** {@code RPCSEC_GSS}. */
    public static final int RPCSEC_GSS = 6;

    public int flavor;
    /** Present only when {@link #flavor} is {@link #RPCSEC_GSS}. */
    public rpcsec_gss_info flavor_info;

    public secinfo4() {
    }

    public secinfo4(int flavor) {
        this.flavor = flavor;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(flavor);
        if (flavor == RPCSEC_GSS) {
            flavor_info.xdrEncode(xdr);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        flavor = xdr.xdrDecodeInt();
        if (flavor == RPCSEC_GSS) {
            flavor_info = new rpcsec_gss_info();
            flavor_info.xdrDecode(xdr);
        } else {
            flavor_info = null;
        }
    }
}
