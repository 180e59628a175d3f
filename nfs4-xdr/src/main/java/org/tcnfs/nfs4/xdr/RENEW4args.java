package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code RENEW4args} (RFC 7530 section 16.28): the client whose lease to renew. */
public class RENEW4args implements XdrAble {
    public long clientid;

    public RENEW4args() {
    }

    public RENEW4args(long clientid) {
        this.clientid = clientid;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeLong(clientid);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        clientid = xdr.xdrDecodeLong();
    }
}
