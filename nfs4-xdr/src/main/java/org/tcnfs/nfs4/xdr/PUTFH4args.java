package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code PUTFH4args}: the file handle that becomes the current one. */
public class PUTFH4args implements XdrAble {
    public nfs_fh4 object = new nfs_fh4(new byte[0]);

    public PUTFH4args() {
    }

    public PUTFH4args(nfs_fh4 object) {
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
