package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code specdata4}: major ({@link #specdata1}) and minor ({@link #specdata2}) device numbers. */
public class specdata4 implements XdrAble {
    public int specdata1;
    public int specdata2;

    public specdata4() {
    }

    public specdata4(int specdata1, int specdata2) {
        this.specdata1 = specdata1;
        this.specdata2 = specdata2;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(specdata1);
        xdr.xdrEncodeInt(specdata2);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        specdata1 = xdr.xdrDecodeInt();
        specdata2 = xdr.xdrDecodeInt();
    }
}
