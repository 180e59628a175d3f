package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code COMMIT4resok}: the server's write verifier. */
public class COMMIT4resok implements XdrAble {
    public verifier4 writeverf = new verifier4();

    public COMMIT4resok() {
    }

    public COMMIT4resok(verifier4 writeverf) {
        this.writeverf = writeverf;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        writeverf.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        writeverf = new verifier4();
        writeverf.xdrDecode(xdr);
    }
}
