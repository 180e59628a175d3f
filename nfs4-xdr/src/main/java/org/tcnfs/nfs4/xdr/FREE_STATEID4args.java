package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code FREE_STATEID4args}: the stateid to free. */
public class FREE_STATEID4args implements XdrAble {
    public stateid4 fsa_stateid = new stateid4();

    public FREE_STATEID4args() {
    }

    public FREE_STATEID4args(stateid4 fsa_stateid) {
        this.fsa_stateid = fsa_stateid;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        fsa_stateid.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        fsa_stateid = new stateid4();
        fsa_stateid.xdrDecode(xdr);
    }
}
