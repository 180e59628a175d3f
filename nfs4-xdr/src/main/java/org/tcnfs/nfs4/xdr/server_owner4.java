package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code server_owner4}: identifies the server for trunking (RFC 8881 2.5). */
public class server_owner4 implements XdrAble {
    public long so_minor_id;
    public byte[] so_major_id = new byte[0];

    public server_owner4() {
    }

    public server_owner4(long so_minor_id, byte[] so_major_id) {
        this.so_minor_id = so_minor_id;
        this.so_major_id = so_major_id;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeLong(so_minor_id);
        xdr.xdrEncodeDynamicOpaque(so_major_id);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        so_minor_id = xdr.xdrDecodeLong();
        so_major_id = XdrSupport.decodeOpaque(xdr, XdrSupport.NFS4_OPAQUE_LIMIT);
    }
}
