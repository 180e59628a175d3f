package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code TEST_STATEID4args}: the stateids to test, at most {@value XdrSupport#MAX_ARRAY} of them. */
public class TEST_STATEID4args implements XdrAble {
    public stateid4[] ts_stateids = new stateid4[0];

    public TEST_STATEID4args() {
    }

    public TEST_STATEID4args(stateid4[] ts_stateids) {
        this.ts_stateids = ts_stateids;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(ts_stateids.length);
        for (stateid4 s : ts_stateids) {
            s.xdrEncode(xdr);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        int n = XdrSupport.decodeLength(xdr, XdrSupport.MAX_ARRAY);
        List<stateid4> decoded = new ArrayList<>(Math.min(n, 64));
        for (int i = 0; i < n; i++) {
            stateid4 s = new stateid4();
            s.xdrDecode(xdr);
            decoded.add(s);
        }
        ts_stateids = decoded.toArray(new stateid4[0]);
    }
}
