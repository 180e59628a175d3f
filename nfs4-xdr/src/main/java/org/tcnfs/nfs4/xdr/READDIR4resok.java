package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code READDIR4resok}: the directory's cookie verifier and the entries. */
public class READDIR4resok implements XdrAble {
    public verifier4 cookieverf = new verifier4();
    public dirlist4 reply = new dirlist4();

    public READDIR4resok() {
    }

    public READDIR4resok(verifier4 cookieverf, dirlist4 reply) {
        this.cookieverf = cookieverf;
        this.reply = reply;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        cookieverf.xdrEncode(xdr);
        reply.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        cookieverf = new verifier4();
        cookieverf.xdrDecode(xdr);
        reply = new dirlist4();
        reply.xdrDecode(xdr);
    }
}
