package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code GETFH4resok}: the current file handle. */
public class GETFH4resok implements XdrAble {
    public nfs_fh4 object = new nfs_fh4(new byte[0]);

    public GETFH4resok() {
    }

    public GETFH4resok(nfs_fh4 object) {
        this.object = object;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        object.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        object = new nfs_fh4();
        object.xdrDecode(xdr);
    }
}
