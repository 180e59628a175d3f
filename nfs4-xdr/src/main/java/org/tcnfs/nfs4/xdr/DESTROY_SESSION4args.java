package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code DESTROY_SESSION4args} (RFC 8881 18.37). */
public class DESTROY_SESSION4args implements XdrAble {
    public sessionid4 dsa_sessionid = new sessionid4();

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        dsa_sessionid.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        dsa_sessionid = new sessionid4();
        dsa_sessionid.xdrDecode(xdr);
    }
}
