package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code GETATTR4args}: the attributes wanted of the current file handle. */
public class GETATTR4args implements XdrAble {
    public bitmap4 attr_request = new bitmap4();

    public GETATTR4args() {
    }

    public GETATTR4args(bitmap4 attr_request) {
        this.attr_request = attr_request;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        attr_request.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        attr_request = new bitmap4();
        attr_request.xdrDecode(xdr);
    }
}
