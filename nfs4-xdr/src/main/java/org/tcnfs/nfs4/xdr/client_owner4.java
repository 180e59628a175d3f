package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code client_owner4}: the client's boot verifier and its long-lived owner id. */
public class client_owner4 implements XdrAble {
    public verifier4 co_verifier = new verifier4();
    public byte[] co_ownerid = new byte[0];

    public client_owner4() {
    }

    public client_owner4(verifier4 co_verifier, byte[] co_ownerid) {
        this.co_verifier = co_verifier;
        this.co_ownerid = co_ownerid;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        co_verifier.xdrEncode(xdr);
        xdr.xdrEncodeDynamicOpaque(co_ownerid);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        co_verifier = new verifier4();
        co_verifier.xdrDecode(xdr);
        co_ownerid = XdrSupport.decodeOpaque(xdr, XdrSupport.NFS4_OPAQUE_LIMIT);
    }
}
