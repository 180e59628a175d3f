package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code READDIR4args}: where to resume, the reply size limits, and the attributes wanted per entry. */
public class READDIR4args implements XdrAble {
    /** {@code nfs_cookie4}: 0 to start, else the cookie of the last entry seen. */
    public long cookie;
    public verifier4 cookieverf = new verifier4();
    /** {@code count4}, unsigned: a hint for the bytes of names and cookies. */
    public int dircount;
    /** {@code count4}, unsigned: the largest READDIR4resok the client takes. */
    public int maxcount;
    public bitmap4 attr_request = new bitmap4();

    public READDIR4args() {
    }

    public READDIR4args(long cookie, verifier4 cookieverf, int dircount, int maxcount, bitmap4 attr_request) {
        this.cookie = cookie;
        this.cookieverf = cookieverf;
        this.dircount = dircount;
        this.maxcount = maxcount;
        this.attr_request = attr_request;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeLong(cookie);
        cookieverf.xdrEncode(xdr);
        xdr.xdrEncodeInt(dircount);
        xdr.xdrEncodeInt(maxcount);
        attr_request.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        cookie = xdr.xdrDecodeLong();
        cookieverf = new verifier4();
        cookieverf.xdrDecode(xdr);
        dircount = xdr.xdrDecodeInt();
        maxcount = xdr.xdrDecodeInt();
        attr_request = new bitmap4();
        attr_request.xdrDecode(xdr);
    }
}
