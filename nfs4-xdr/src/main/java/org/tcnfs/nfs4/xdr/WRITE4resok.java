package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code WRITE4resok}: bytes written, how durably, and the server's write verifier. */
public class WRITE4resok implements XdrAble {
    /** {@code count4}, unsigned. */
    public int count;
    /** A {@link stable_how4} value. */
    public int committed;
    public verifier4 writeverf = new verifier4();

    public WRITE4resok() {
    }

    public WRITE4resok(int count, int committed, verifier4 writeverf) {
        this.count = count;
        this.committed = committed;
        this.writeverf = writeverf;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(count);
        xdr.xdrEncodeInt(committed);
        writeverf.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        count = xdr.xdrDecodeInt();
        committed = xdr.xdrDecodeInt();
        writeverf = new verifier4();
        writeverf.xdrDecode(xdr);
    }
}
