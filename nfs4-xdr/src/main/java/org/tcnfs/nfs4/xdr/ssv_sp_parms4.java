package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code ssv_sp_parms4}: the SSV state protection a client asks for. */
public class ssv_sp_parms4 implements XdrAble {
    /** The most algorithm OIDs the server decodes per list. */
    public static final int MAX_ALGS = 64;

    public state_protect_ops4 ssp_ops = new state_protect_ops4();
    /** {@code sec_oid4 ssp_hash_algs<>}. */
    public byte[][] ssp_hash_algs = new byte[0][];
    /** {@code sec_oid4 ssp_encr_algs<>}. */
    public byte[][] ssp_encr_algs = new byte[0][];
    public int ssp_window;
    public int ssp_num_gss_handles;

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        ssp_ops.xdrEncode(xdr);
        encodeOpaques(xdr, ssp_hash_algs);
        encodeOpaques(xdr, ssp_encr_algs);
        xdr.xdrEncodeInt(ssp_window);
        xdr.xdrEncodeInt(ssp_num_gss_handles);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        ssp_ops = new state_protect_ops4();
        ssp_ops.xdrDecode(xdr);
        ssp_hash_algs = decodeOpaques(xdr, MAX_ALGS);
        ssp_encr_algs = decodeOpaques(xdr, MAX_ALGS);
        ssp_window = xdr.xdrDecodeInt();
        ssp_num_gss_handles = xdr.xdrDecodeInt();
    }

    static void encodeOpaques(XdrEncodingStream xdr, byte[][] values) {
        xdr.xdrEncodeInt(values.length);
        for (byte[] v : values) {
            xdr.xdrEncodeDynamicOpaque(v);
        }
    }

    static byte[][] decodeOpaques(XdrDecodingStream xdr, int max) throws IOException {
        int n = XdrSupport.decodeLength(xdr, max);
        byte[][] values = new byte[n][];
        for (int i = 0; i < n; i++) {
            values[i] = XdrSupport.decodeOpaque(xdr, XdrSupport.NFS4_OPAQUE_LIMIT);
        }
        return values;
    }
}
