package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code LINK4args}: the new name, in the current directory, for the object of the saved file handle.
 *
 * <p>{@link #newname} is a {@code component4}, decoded strictly: it is {@code null} when the bytes are not
 * valid UTF-8, and the operation answers NFS4ERR_INVAL (see {@code org.tcnfs.nfs4.ops.Names}).
 */
public class LINK4args implements XdrAble {
    public String newname = "";

    public LINK4args() {
    }

    public LINK4args(String newname) {
        this.newname = newname;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        XdrSupport.encodeString(xdr, newname);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        newname = XdrSupport.decodeStrictUtf8(xdr, XdrSupport.MAX_STRING);
    }
}
