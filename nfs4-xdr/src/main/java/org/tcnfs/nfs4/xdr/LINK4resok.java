package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code LINK4resok}: how the target directory changed. */
public class LINK4resok implements XdrAble {
    public change_info4 cinfo = new change_info4();

    public LINK4resok() {
    }

    public LINK4resok(change_info4 cinfo) {
        this.cinfo = cinfo;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        cinfo.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        cinfo = new change_info4();
        cinfo.xdrDecode(xdr);
    }
}
