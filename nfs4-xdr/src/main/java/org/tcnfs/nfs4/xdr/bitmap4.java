package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code bitmap4}: a variable-length array of 32-bit words; bit n is word n/32, bit n%32. */
public class bitmap4 implements XdrAble {
    public int[] value = new int[0];

    public bitmap4() {
    }

    public bitmap4(int[] value) {
        this.value = value;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeIntVector(value);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        value = XdrSupport.decodeIntArray(xdr, XdrSupport.MAX_BITMAP_WORDS);
    }
}
