package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code REMOVE4args}: the name to remove from the current directory.
 *
 * <p>{@link #target} is a {@code component4}, decoded strictly: it is {@code null} when the bytes are not
 * valid UTF-8, and the operation answers NFS4ERR_INVAL (see {@code org.tcnfs.nfs4.ops.Names}).
 */
public class REMOVE4args implements XdrAble {
    public String target = "";

    public REMOVE4args() {
    }

    public REMOVE4args(String target) {
        this.target = target;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        XdrSupport.encodeString(xdr, target);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        target = XdrSupport.decodeStrictUtf8(xdr, XdrSupport.MAX_STRING);
    }
}
