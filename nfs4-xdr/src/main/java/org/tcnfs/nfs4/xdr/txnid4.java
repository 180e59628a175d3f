package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code txnid4} (tcnfs extension, docs/protocol.md "Transactions that span compounds"): {@code opaque
 * txnid4[16]}, the server-chosen id of a transaction that spans compounds.
 */
public class txnid4 implements XdrAble {
    /** Its fixed size in bytes. */
    public static final int SIZE = 16;

    public byte[] value = new byte[SIZE];

    public txnid4() {
    }

    public txnid4(byte[] value) {
        this.value = value;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeOpaque(value, SIZE);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        value = XdrSupport.decodeFixedOpaque(xdr, SIZE);
    }
}
