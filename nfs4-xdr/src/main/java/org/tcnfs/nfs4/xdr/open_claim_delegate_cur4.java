package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code open_claim_delegate_cur4}: a delegation stateid and a name. {@link #file} is decoded strictly: it
 * is {@code null} when the bytes are not valid UTF-8.
 */
public class open_claim_delegate_cur4 implements XdrAble {
    public stateid4 delegate_stateid = new stateid4();
    public String file = "";

    public open_claim_delegate_cur4() {
    }

    public open_claim_delegate_cur4(stateid4 delegate_stateid, String file) {
        this.delegate_stateid = delegate_stateid;
        this.file = file;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        delegate_stateid.xdrEncode(xdr);
        XdrSupport.encodeString(xdr, file);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        delegate_stateid = new stateid4();
        delegate_stateid.xdrDecode(xdr);
        file = XdrSupport.decodeStrictUtf8(xdr, XdrSupport.MAX_STRING);
    }
}
