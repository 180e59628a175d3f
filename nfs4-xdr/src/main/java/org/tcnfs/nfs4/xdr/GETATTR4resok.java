package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code GETATTR4resok}: the attributes returned. */
public class GETATTR4resok implements XdrAble {
    public fattr4 obj_attributes = new fattr4();

    public GETATTR4resok() {
    }

    public GETATTR4resok(fattr4 obj_attributes) {
        this.obj_attributes = obj_attributes;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        obj_attributes.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        obj_attributes = new fattr4();
        obj_attributes.xdrDecode(xdr);
    }
}
