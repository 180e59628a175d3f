package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code SECINFO4resok}: the security flavors usable for an object, most preferred first ({@code
 * secinfo4<>}); also the result body of SECINFO_NO_NAME.
 */
public class SECINFO4resok implements XdrAble {
    /** The most flavors the decoder accepts. */
    public static final int MAX_FLAVORS = 64;

    public secinfo4[] value = new secinfo4[0];

    public SECINFO4resok() {
    }

    public SECINFO4resok(secinfo4[] value) {
        this.value = value;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(value.length);
        for (secinfo4 s : value) {
            s.xdrEncode(xdr);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        int n = XdrSupport.decodeLength(xdr, MAX_FLAVORS);
        value = new secinfo4[n];
        for (int i = 0; i < n; i++) {
            value[i] = new secinfo4();
            value[i].xdrDecode(xdr);
        }
    }
}
