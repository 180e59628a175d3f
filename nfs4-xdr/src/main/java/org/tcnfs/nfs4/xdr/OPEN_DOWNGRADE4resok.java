package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code OPEN_DOWNGRADE4resok}: the open's new stateid. */
public class OPEN_DOWNGRADE4resok implements XdrAble {
    public stateid4 open_stateid = new stateid4();

    public OPEN_DOWNGRADE4resok() {
    }

    public OPEN_DOWNGRADE4resok(stateid4 open_stateid) {
        this.open_stateid = open_stateid;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        open_stateid.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        open_stateid = new stateid4();
        open_stateid.xdrDecode(xdr);
    }
}
