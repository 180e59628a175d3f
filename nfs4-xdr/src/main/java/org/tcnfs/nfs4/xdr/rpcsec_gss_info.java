package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code rpcsec_gss_info}: one RPCSEC_GSS mechanism, quality of protection and service. */
public class rpcsec_gss_info implements XdrAble {
    /** {@code RPC_GSS_SVC_NONE}. */
    public static final int RPC_GSS_SVC_NONE = 1;
    /** {@code RPC_GSS_SVC_INTEGRITY}. */
    public static final int RPC_GSS_SVC_INTEGRITY = 2;
    /** {@code RPC_GSS_SVC_PRIVACY}. */
    public static final int RPC_GSS_SVC_PRIVACY = 3;

    /** {@code sec_oid4}: the mechanism's object identifier (DER). */
    public byte[] oid = new byte[0];
    /** {@code qop4}. */
    public int qop;
    /** {@code rpc_gss_svc_t}. */
    public int service = RPC_GSS_SVC_NONE;

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeDynamicOpaque(oid);
        xdr.xdrEncodeInt(qop);
        xdr.xdrEncodeInt(service);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        oid = XdrSupport.decodeOpaque(xdr, XdrSupport.NFS4_OPAQUE_LIMIT);
        qop = xdr.xdrDecodeInt();
        service = xdr.xdrDecodeInt();
    }
}
