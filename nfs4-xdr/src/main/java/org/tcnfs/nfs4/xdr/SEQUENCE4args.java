package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code SEQUENCE4args} (RFC 8881 18.46). */
public class SEQUENCE4args implements XdrAble {
    public sessionid4 sa_sessionid = new sessionid4();
    public int sa_sequenceid;
    public int sa_slotid;
    public int sa_highest_slotid;
    public boolean sa_cachethis;

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        sa_sessionid.xdrEncode(xdr);
        xdr.xdrEncodeInt(sa_sequenceid);
        xdr.xdrEncodeInt(sa_slotid);
        xdr.xdrEncodeInt(sa_highest_slotid);
        xdr.xdrEncodeBoolean(sa_cachethis);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        sa_sessionid = new sessionid4();
        sa_sessionid.xdrDecode(xdr);
        sa_sequenceid = xdr.xdrDecodeInt();
        sa_slotid = xdr.xdrDecodeInt();
        sa_highest_slotid = xdr.xdrDecodeInt();
        sa_cachethis = XdrSupport.decodeBoolean(xdr);
    }
}
