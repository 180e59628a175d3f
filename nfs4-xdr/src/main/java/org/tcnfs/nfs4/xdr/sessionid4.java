package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code sessionid4}: the 16 opaque bytes that name a session. */
public class sessionid4 implements XdrAble {
    public byte[] value = new byte[XdrSupport.NFS4_SESSIONID_SIZE];

    public sessionid4() {
    }

    public sessionid4(byte[] value) {
        this.value = value;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeOpaque(value, XdrSupport.NFS4_SESSIONID_SIZE);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        value = XdrSupport.decodeFixedOpaque(xdr, XdrSupport.NFS4_SESSIONID_SIZE);
    }
}
