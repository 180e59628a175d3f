package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * The body of {@code SETATTR4res} after its status: {@code attrsset}, which follows every status (the
 * attributes that were set, empty on failure). The status itself is {@link nfs_resop4#status}.
 */
public class SETATTR4res implements XdrAble {
    public bitmap4 attrsset = new bitmap4();

    public SETATTR4res() {
    }

    public SETATTR4res(bitmap4 attrsset) {
        this.attrsset = attrsset;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        attrsset.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        attrsset = new bitmap4();
        attrsset.xdrDecode(xdr);
    }
}
