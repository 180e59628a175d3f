package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code TXN_BEGIN4args} (tcnfs extension, docs/protocol.md): {@code uint64 tba_ticket}, 0 for a new
 * transaction, else the ticket an earlier attempt of the same work was given (wait-die age).
 */
public class TXN_BEGIN4args implements XdrAble {
    /** Its encoded size in bytes (one {@code uint64}). */
    public static final int SIZE = 8;

    public long ticket;

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeLong(ticket);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        ticket = xdr.xdrDecodeLong();
    }
}
