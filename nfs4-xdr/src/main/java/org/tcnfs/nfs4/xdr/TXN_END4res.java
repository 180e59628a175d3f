package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code TXN_END4res} (tcnfs extension, docs/protocol.md): the {@code nfsstat4} of TXN_COMMIT or TXN_ABORT. */
public class TXN_END4res implements XdrAble {
    public int status;

    public TXN_END4res() {
    }

    public TXN_END4res(int status) {
        this.status = status;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(status);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        status = xdr.xdrDecodeInt();
    }
}
