package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code RECLAIM_COMPLETE4args} (RFC 8881 18.51). */
public class RECLAIM_COMPLETE4args implements XdrAble {
    public boolean rca_one_fs;

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeBoolean(rca_one_fs);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        rca_one_fs = XdrSupport.decodeBoolean(xdr);
    }
}
