package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code DELEGRETURN4args}: the delegation to return. */
public class DELEGRETURN4args implements XdrAble {
    public stateid4 deleg_stateid = new stateid4();

    public DELEGRETURN4args() {
    }

    public DELEGRETURN4args(stateid4 deleg_stateid) {
        this.deleg_stateid = deleg_stateid;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        deleg_stateid.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        deleg_stateid = new stateid4();
        deleg_stateid.xdrDecode(xdr);
    }
}
