package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code state_owner4}: a client id and an opaque owner name of at most {@value XdrSupport#NFS4_OPAQUE_LIMIT}
 * bytes. {@link open_owner4} and {@link lock_owner4} are its RFC typedefs.
 */
public class state_owner4 implements XdrAble {
    public long clientid;
    public byte[] owner = new byte[0];

    public state_owner4() {
    }

    public state_owner4(long clientid, byte[] owner) {
        this.clientid = clientid;
        this.owner = owner;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeLong(clientid);
        xdr.xdrEncodeDynamicOpaque(owner);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        clientid = xdr.xdrDecodeLong();
        owner = XdrSupport.decodeOpaque(xdr, XdrSupport.NFS4_OPAQUE_LIMIT);
    }
}
