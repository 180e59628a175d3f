package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code COMPOUND4res}: the status of the last operation run, the tag, and one result per operation run. */
public class COMPOUND4res implements XdrAble {
    public int status;
    public String tag = "";
    public nfs_resop4[] resarray = new nfs_resop4[0];

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(status);
        XdrSupport.encodeString(xdr, tag);
        xdr.xdrEncodeInt(resarray.length);
        for (nfs_resop4 res : resarray) {
            res.xdrEncode(xdr);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        status = xdr.xdrDecodeInt();
        tag = XdrSupport.decodeString(xdr, XdrSupport.MAX_STRING);
        int count = XdrSupport.decodeLength(xdr, COMPOUND4args.MAX_OPS_DECODED);
        resarray = new nfs_resop4[count];
        for (int i = 0; i < count; i++) {
            resarray[i] = new nfs_resop4();
            resarray[i].xdrDecode(xdr);
        }
    }
}
