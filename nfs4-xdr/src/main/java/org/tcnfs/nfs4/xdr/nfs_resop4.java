package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code nfs_resop4}: the result of one operation.
 *
 * <p>Every NFSv4 result starts with the operation number and an {@code nfsstat4}; what follows depends on
 * the operation and the status. {@link #body} holds that rest ({@code READ4resok} when a READ succeeded,
 * {@code LOCK4denied} when a LOCK was denied, ...) or is {@code null} when the status has no body.
 * {@link OperationCodecs#newResultBody} knows the body type for each operation and status.
 */
public class nfs_resop4 implements XdrAble {
    public int resop;
    public int status;
    public XdrAble body;

    public nfs_resop4() {
    }

    public nfs_resop4(int resop, int status, XdrAble body) {
        this.resop = resop;
        this.status = status;
        this.body = body;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(resop);
        xdr.xdrEncodeInt(status);
        // A status set outside the operation (a hook, a position rule) has no body even where the wire
        // needs one (SETATTR4res always carries attrsset): send the empty body then.
        XdrAble b = body != null ? body : OperationCodecs.newResultBody(resop, status);
        if (b != null) {
            b.xdrEncode(xdr);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        resop = xdr.xdrDecodeInt();
        status = xdr.xdrDecodeInt();
        body = OperationCodecs.newResultBody(resop, status);
        if (body != null) {
            body.xdrDecode(xdr);
        }
    }
}
