package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code TEST_STATEID4resok}: one status per tested stateid, in order. */
public class TEST_STATEID4resok implements XdrAble {
    public int[] tsr_status_codes = new int[0];

    public TEST_STATEID4resok() {
    }

    public TEST_STATEID4resok(int[] tsr_status_codes) {
        this.tsr_status_codes = tsr_status_codes;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeIntVector(tsr_status_codes);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        tsr_status_codes = XdrSupport.decodeIntArray(xdr, XdrSupport.MAX_ARRAY);
    }
}
