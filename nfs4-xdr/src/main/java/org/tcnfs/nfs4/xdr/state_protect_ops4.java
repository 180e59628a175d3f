package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code state_protect_ops4}: the operations that must, and that may, use the protected credential. */
public class state_protect_ops4 implements XdrAble {
    public bitmap4 spo_must_enforce = new bitmap4();
    public bitmap4 spo_must_allow = new bitmap4();

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        spo_must_enforce.xdrEncode(xdr);
        spo_must_allow.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        spo_must_enforce = new bitmap4();
        spo_must_enforce.xdrDecode(xdr);
        spo_must_allow = new bitmap4();
        spo_must_allow.xdrDecode(xdr);
    }
}
