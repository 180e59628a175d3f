package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code LOOKUP4args}: the name to look up in the current directory.
 *
 * <p>{@link #objname} is a {@code component4}, decoded strictly: it is {@code null} when the bytes are not
 * valid UTF-8, and the operation answers NFS4ERR_INVAL (see {@code org.tcnfs.nfs4.ops.Names}).
 */
public class LOOKUP4args implements XdrAble {
    public String objname = "";

    public LOOKUP4args() {
    }

    public LOOKUP4args(String objname) {
        this.objname = objname;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        XdrSupport.encodeString(xdr, objname);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        objname = XdrSupport.decodeStrictUtf8(xdr, XdrSupport.MAX_STRING);
    }
}
