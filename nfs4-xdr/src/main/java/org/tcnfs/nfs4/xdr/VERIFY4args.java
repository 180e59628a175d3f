package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code VERIFY4args}: the attribute values to compare with those of the current file handle. */
public class VERIFY4args implements XdrAble {
    public fattr4 obj_attributes = new fattr4();

    public VERIFY4args() {
    }

    public VERIFY4args(fattr4 obj_attributes) {
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
