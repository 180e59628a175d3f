package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code BIND_CONN_TO_SESSION4args} (RFC 8881 18.34). */
public class BIND_CONN_TO_SESSION4args implements XdrAble {
    public sessionid4 bctsa_sessid = new sessionid4();
    /** A {@link channel_dir_from_client4} value. */
    public int bctsa_dir;
    public boolean bctsa_use_conn_in_rdma_mode;

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        bctsa_sessid.xdrEncode(xdr);
        xdr.xdrEncodeInt(bctsa_dir);
        xdr.xdrEncodeBoolean(bctsa_use_conn_in_rdma_mode);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        bctsa_sessid = new sessionid4();
        bctsa_sessid.xdrDecode(xdr);
        bctsa_dir = xdr.xdrDecodeInt();
        bctsa_use_conn_in_rdma_mode = XdrSupport.decodeBoolean(xdr);
    }
}
