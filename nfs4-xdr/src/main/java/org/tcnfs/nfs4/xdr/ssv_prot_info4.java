package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code ssv_prot_info4}: the SSV state protection a server grants (never granted by this server). */
public class ssv_prot_info4 implements XdrAble {
    /** The most GSS handles the decoder accepts. */
    public static final int MAX_HANDLES = 1024;

    public state_protect_ops4 spi_ops = new state_protect_ops4();
    public int spi_hash_alg;
    public int spi_encr_alg;
    public int spi_ssv_len;
    public int spi_window;
    /** {@code gsshandle4_t spi_handles<>}. */
    public byte[][] spi_handles = new byte[0][];

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        spi_ops.xdrEncode(xdr);
        xdr.xdrEncodeInt(spi_hash_alg);
        xdr.xdrEncodeInt(spi_encr_alg);
        xdr.xdrEncodeInt(spi_ssv_len);
        xdr.xdrEncodeInt(spi_window);
        ssv_sp_parms4.encodeOpaques(xdr, spi_handles);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        spi_ops = new state_protect_ops4();
        spi_ops.xdrDecode(xdr);
        spi_hash_alg = xdr.xdrDecodeInt();
        spi_encr_alg = xdr.xdrDecodeInt();
        spi_ssv_len = xdr.xdrDecodeInt();
        spi_window = xdr.xdrDecodeInt();
        spi_handles = ssv_sp_parms4.decodeOpaques(xdr, MAX_HANDLES);
    }
}
