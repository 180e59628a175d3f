package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code ACCESS4resok}: which of the requested bits the server can judge, and which it grants. */
public class ACCESS4resok implements XdrAble {
    public int supported;
    public int access;

    public ACCESS4resok() {
    }

    public ACCESS4resok(int supported, int access) {
        this.supported = supported;
        this.access = access;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(supported);
        xdr.xdrEncodeInt(access);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        supported = xdr.xdrDecodeInt();
        access = xdr.xdrDecodeInt();
    }
}
