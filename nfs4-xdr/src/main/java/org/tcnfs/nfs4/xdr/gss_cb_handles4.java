package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code gss_cb_handles4}: RPCSEC_GSS handles for the back channel. */
public class gss_cb_handles4 implements XdrAble {
    /** {@code rpc_gss_svc_t}: RPC_GSS_SVC_NONE (1), INTEGRITY (2) or PRIVACY (3). */
    public int gcbp_service;
    public byte[] gcbp_handle_from_server = new byte[0];
    public byte[] gcbp_handle_from_client = new byte[0];

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(gcbp_service);
        xdr.xdrEncodeDynamicOpaque(gcbp_handle_from_server);
        xdr.xdrEncodeDynamicOpaque(gcbp_handle_from_client);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        gcbp_service = xdr.xdrDecodeInt();
        gcbp_handle_from_server = XdrSupport.decodeOpaque(xdr, XdrSupport.NFS4_OPAQUE_LIMIT);
        gcbp_handle_from_client = XdrSupport.decodeOpaque(xdr, XdrSupport.NFS4_OPAQUE_LIMIT);
    }
}
