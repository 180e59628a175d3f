package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code BIND_CONN_TO_SESSION4resok} (RFC 8881 18.34). */
public class BIND_CONN_TO_SESSION4resok implements XdrAble {
    public sessionid4 bctsr_sessid = new sessionid4();
    /** A {@link channel_dir_from_server4} value. */
    public int bctsr_dir;
    public boolean bctsr_use_conn_in_rdma_mode;

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        bctsr_sessid.xdrEncode(xdr);
        xdr.xdrEncodeInt(bctsr_dir);
        xdr.xdrEncodeBoolean(bctsr_use_conn_in_rdma_mode);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        bctsr_sessid = new sessionid4();
        bctsr_sessid.xdrDecode(xdr);
        bctsr_dir = xdr.xdrDecodeInt();
        bctsr_use_conn_in_rdma_mode = XdrSupport.decodeBoolean(xdr);
    }
}
