package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code TXN_COMPOUND4args} (tcnfs extension, docs/protocol.md): the transaction's id, then an ordinary
 * {@code COMPOUND4args}. The reply is an ordinary {@code COMPOUND4res}.
 */
public class TXN_COMPOUND4args implements XdrAble {
    public txnid4 txnid = new txnid4();
    public COMPOUND4args compound = new COMPOUND4args();

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        txnid.xdrEncode(xdr);
        compound.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        txnid.xdrDecode(xdr);
        compound.xdrDecode(xdr);
    }
}
