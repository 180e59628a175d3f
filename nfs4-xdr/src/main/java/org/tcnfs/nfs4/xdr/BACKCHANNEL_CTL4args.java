package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code BACKCHANNEL_CTL4args} (RFC 8881 18.33). */
public class BACKCHANNEL_CTL4args implements XdrAble {
    public int bca_cb_program;
    public callback_sec_parms4[] bca_sec_parms = new callback_sec_parms4[0];

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(bca_cb_program);
        callback_sec_parms4.encodeList(xdr, bca_sec_parms);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        bca_cb_program = xdr.xdrDecodeInt();
        bca_sec_parms = callback_sec_parms4.decodeList(xdr);
    }
}
