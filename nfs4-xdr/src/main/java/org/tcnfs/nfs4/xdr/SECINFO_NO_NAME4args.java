package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code SECINFO_NO_NAME4args}: a {@link secinfo_style4} value. Values other than the two the RFC defines
 * are kept as decoded; the operation refuses them.
 */
public class SECINFO_NO_NAME4args implements XdrAble {
    public int value;

    public SECINFO_NO_NAME4args() {
    }

    public SECINFO_NO_NAME4args(int value) {
        this.value = value;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(value);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        value = xdr.xdrDecodeInt();
    }
}
