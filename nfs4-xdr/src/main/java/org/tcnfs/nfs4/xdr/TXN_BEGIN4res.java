package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code TXN_BEGIN4res} (tcnfs extension, docs/protocol.md): {@code nfsstat4 tbr_status}, and when it is
 * NFS4_OK the id, the ticket and the transaction's limits.
 */
public class TXN_BEGIN4res implements XdrAble {
    public int status;
    public txnid4 txnid = new txnid4();
    public long ticket;
    public int maxCompounds;
    public long maxBytes;
    public int idleTimeoutMillis;

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(status);
        if (status == 0) {
            txnid.xdrEncode(xdr);
            xdr.xdrEncodeLong(ticket);
            xdr.xdrEncodeInt(maxCompounds);
            xdr.xdrEncodeLong(maxBytes);
            xdr.xdrEncodeInt(idleTimeoutMillis);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        status = xdr.xdrDecodeInt();
        if (status == 0) {
            txnid.xdrDecode(xdr);
            ticket = xdr.xdrDecodeLong();
            maxCompounds = xdr.xdrDecodeInt();
            maxBytes = xdr.xdrDecodeLong();
            idleTimeoutMillis = xdr.xdrDecodeInt();
        }
    }
}
