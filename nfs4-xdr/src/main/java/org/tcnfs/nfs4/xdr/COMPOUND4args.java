package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.dcache.oncrpc4j.rpc.OncRpcException;

import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code COMPOUND4args}: tag, minor version and the operations.
 *
 * <p>Decoding stops after an operation number the server does not know; that operation is kept as
 * {@code OP_ILLEGAL} so the engine answers NFS4ERR_OP_ILLEGAL at its position.
 */
public class COMPOUND4args implements XdrAble {
    /** The hard cap on operations the decoder accepts; sessions negotiate a smaller limit. */
    public static final int MAX_OPS_DECODED = 1 << 20;

    public String tag = "";
    public int minorversion;
    public nfs_argop4[] argarray = new nfs_argop4[0];

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        XdrSupport.encodeString(xdr, tag);
        xdr.xdrEncodeInt(minorversion);
        xdr.xdrEncodeInt(argarray.length);
        for (nfs_argop4 op : argarray) {
            op.xdrEncode(xdr);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        tag = XdrSupport.decodeString(xdr, XdrSupport.MAX_STRING);
        minorversion = xdr.xdrDecodeInt();
        int count = xdr.xdrDecodeInt();
        if (count < 0 || count > MAX_OPS_DECODED) {
            throw new MalformedXdrException("compound of " + (count & 0xffffffffL) + " operations");
        }
        List<nfs_argop4> ops = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            nfs_argop4 op = new nfs_argop4();
            op.xdrDecode(xdr);
            ops.add(op);
            if (op.argop == nfs_opnum4.OP_ILLEGAL) {
                break;
            }
        }
        argarray = ops.toArray(new nfs_argop4[0]);
    }
}
