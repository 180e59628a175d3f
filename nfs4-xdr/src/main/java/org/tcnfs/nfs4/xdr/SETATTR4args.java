package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code SETATTR4args}: a stateid (for size changes) and the attributes to set. */
public class SETATTR4args implements XdrAble {
    public stateid4 stateid = new stateid4();
    public fattr4 obj_attributes = new fattr4();

    public SETATTR4args() {
    }

    public SETATTR4args(stateid4 stateid, fattr4 obj_attributes) {
        this.stateid = stateid;
        this.obj_attributes = obj_attributes;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        stateid.xdrEncode(xdr);
        obj_attributes.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        stateid = new stateid4();
        stateid.xdrDecode(xdr);
        obj_attributes = new fattr4();
        obj_attributes.xdrDecode(xdr);
    }
}
