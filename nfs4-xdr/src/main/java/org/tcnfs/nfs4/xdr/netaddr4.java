package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code netaddr4} (RFC 7530 section 2.2): a network id ({@code "tcp"}, {@code "tcp6"}) and a universal
 * address ({@code "h1.h2.h3.h4.p1.p2"}). NFSv4.0's {@code clientaddr4}, the body of SETCLIENTID's
 * NFS4ERR_CLID_INUSE, has the same encoding. Strings of at most {@value XdrSupport#NFS4_OPAQUE_LIMIT} bytes.
 * Both are decoded strictly as UTF-8: a string that is not valid UTF-8 decodes to {@code null}, which the
 * operation answers with NFS4ERR_INVAL (RFC 7530 12.7).
 */
public class netaddr4 implements XdrAble {
    public String na_r_netid = "";
    public String na_r_addr = "";

    public netaddr4() {
    }

    public netaddr4(String na_r_netid, String na_r_addr) {
        this.na_r_netid = na_r_netid;
        this.na_r_addr = na_r_addr;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        XdrSupport.encodeString(xdr, na_r_netid);
        XdrSupport.encodeString(xdr, na_r_addr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        na_r_netid = XdrSupport.decodeStrictUtf8(xdr, XdrSupport.NFS4_OPAQUE_LIMIT);
        na_r_addr = XdrSupport.decodeStrictUtf8(xdr, XdrSupport.NFS4_OPAQUE_LIMIT);
    }
}
