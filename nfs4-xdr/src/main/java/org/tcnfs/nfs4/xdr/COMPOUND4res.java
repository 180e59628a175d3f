package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code COMPOUND4res}: the status of the last operation run, the tag, and one result per operation run. The
 * tag is encoded from {@link #tagBytes} when set (the request's tag, byte for byte), else from {@link #tag}.
 */
public class COMPOUND4res implements XdrAble {
    public int status;
    public String tag = "";
    /** The tag's bytes (the request's, returned unchanged); null to encode {@link #tag}. */
    public byte[] tagBytes;
    public nfs_resop4[] resarray = new nfs_resop4[0];

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(status);
        if (tagBytes != null) {
            xdr.xdrEncodeDynamicOpaque(tagBytes);
        } else {
            XdrSupport.encodeString(xdr, tag);
        }
        xdr.xdrEncodeInt(resarray.length);
        for (nfs_resop4 res : resarray) {
            res.xdrEncode(xdr);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        status = xdr.xdrDecodeInt();
        tagBytes = XdrSupport.decodeOpaque(xdr, XdrSupport.MAX_STRING);
        tag = new String(tagBytes, java.nio.charset.StandardCharsets.UTF_8);
        int count = XdrSupport.decodeLength(xdr, COMPOUND4args.MAX_OPS_DECODED);
        resarray = new nfs_resop4[count];
        for (int i = 0; i < count; i++) {
            resarray[i] = new nfs_resop4();
            resarray[i].xdrDecode(xdr);
        }
    }
}
