package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code RENAME4args}: {@link #oldname} in the saved directory becomes {@link #newname} in the current one.
 *
 * <p>Both are {@code component4}s decoded strictly: {@code null} when the bytes are not valid UTF-8 (the
 * operation answers NFS4ERR_INVAL).
 */
public class RENAME4args implements XdrAble {
    public String oldname = "";
    public String newname = "";

    public RENAME4args() {
    }

    public RENAME4args(String oldname, String newname) {
        this.oldname = oldname;
        this.newname = newname;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        XdrSupport.encodeString(xdr, oldname);
        XdrSupport.encodeString(xdr, newname);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        oldname = XdrSupport.decodeStrictUtf8(xdr, XdrSupport.MAX_STRING);
        newname = XdrSupport.decodeStrictUtf8(xdr, XdrSupport.MAX_STRING);
    }
}
