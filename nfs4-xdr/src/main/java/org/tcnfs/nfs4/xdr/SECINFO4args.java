package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code SECINFO4args}: the name in the current directory whose security flavors are asked for.
 *
 * <p>{@link #name} is a {@code component4}, decoded strictly: it is {@code null} when the bytes are not
 * valid UTF-8, and the operation answers NFS4ERR_INVAL (see {@code org.tcnfs.nfs4.ops.Names}).
 */
public class SECINFO4args implements XdrAble {
    public String name = "";

    public SECINFO4args() {
    }

    public SECINFO4args(String name) {
        this.name = name;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        XdrSupport.encodeString(xdr, name);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        name = XdrSupport.decodeStrictUtf8(xdr, XdrSupport.MAX_STRING);
    }
}
