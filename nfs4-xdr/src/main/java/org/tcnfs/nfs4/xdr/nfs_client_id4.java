package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code nfs_client_id4} (RFC 7530 section 16.33): the NFSv4.0 client's boot verifier and its long-lived
 * identity string (at most {@value XdrSupport#NFS4_OPAQUE_LIMIT} bytes).
 */
public class nfs_client_id4 implements XdrAble {
    public verifier4 verifier = new verifier4();
    public byte[] id = new byte[0];

    public nfs_client_id4() {
    }

    public nfs_client_id4(verifier4 verifier, byte[] id) {
        this.verifier = verifier;
        this.id = id;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        verifier.xdrEncode(xdr);
        xdr.xdrEncodeDynamicOpaque(id);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        verifier = new verifier4();
        verifier.xdrDecode(xdr);
        id = XdrSupport.decodeOpaque(xdr, XdrSupport.NFS4_OPAQUE_LIMIT);
    }
}
