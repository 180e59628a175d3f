package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code channel_attrs4}: the limits of one channel of a session (RFC 8881 18.36). */
public class channel_attrs4 implements XdrAble {
    public int ca_headerpadsize;
    public int ca_maxrequestsize;
    public int ca_maxresponsesize;
    public int ca_maxresponsesize_cached;
    public int ca_maxoperations;
    public int ca_maxrequests;
    /** {@code uint32_t ca_rdma_ird<1>}: empty or one element. */
    public int[] ca_rdma_ird = new int[0];

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(ca_headerpadsize);
        xdr.xdrEncodeInt(ca_maxrequestsize);
        xdr.xdrEncodeInt(ca_maxresponsesize);
        xdr.xdrEncodeInt(ca_maxresponsesize_cached);
        xdr.xdrEncodeInt(ca_maxoperations);
        xdr.xdrEncodeInt(ca_maxrequests);
        xdr.xdrEncodeIntVector(ca_rdma_ird);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        ca_headerpadsize = xdr.xdrDecodeInt();
        ca_maxrequestsize = xdr.xdrDecodeInt();
        ca_maxresponsesize = xdr.xdrDecodeInt();
        ca_maxresponsesize_cached = xdr.xdrDecodeInt();
        ca_maxoperations = xdr.xdrDecodeInt();
        ca_maxrequests = xdr.xdrDecodeInt();
        ca_rdma_ird = XdrSupport.decodeIntArray(xdr, 1);
    }
}
