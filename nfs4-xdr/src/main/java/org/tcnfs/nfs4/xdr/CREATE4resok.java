package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code CREATE4resok}: how the parent directory changed, and which create attributes were set. */
public class CREATE4resok implements XdrAble {
    public change_info4 cinfo = new change_info4();
    public bitmap4 attrset = new bitmap4();

    public CREATE4resok() {
    }

    public CREATE4resok(change_info4 cinfo, bitmap4 attrset) {
        this.cinfo = cinfo;
        this.attrset = attrset;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        cinfo.xdrEncode(xdr);
        attrset.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        cinfo = new change_info4();
        cinfo.xdrDecode(xdr);
        attrset = new bitmap4();
        attrset.xdrDecode(xdr);
    }
}
