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
 * <p>Decoding stops after an operation number the server cannot decode; that operation is kept with its number
 * if RFC 8881 defines it (the engine answers NFS4ERR_NOTSUPP at its position), else as {@code OP_ILLEGAL}
 * (NFS4ERR_OP_ILLEGAL); see {@link nfs_argop4#xdrDecode}.
 *
 * <p>The tag is kept twice: {@link #tagBytes} as it came, byte for byte (the server returns it unchanged and
 * refuses bytes that are not UTF-8 with NFS4ERR_INVAL), and {@link #tag} decoded for logs, with U+FFFD for
 * bytes that are not UTF-8. Encoding writes {@link #tagBytes} when set, else {@link #tag}.
 */
public class COMPOUND4args implements XdrAble {
    /** The hard cap on operations the decoder accepts; sessions negotiate a smaller limit. */
    public static final int MAX_OPS_DECODED = 1 << 20;

    public String tag = "";
    /** The tag's bytes as decoded; null for arguments built in code (then {@link #tag} is encoded). */
    public byte[] tagBytes;
    public int minorversion;
    public nfs_argop4[] argarray = new nfs_argop4[0];

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        if (tagBytes != null) {
            xdr.xdrEncodeDynamicOpaque(tagBytes);
        } else {
            XdrSupport.encodeString(xdr, tag);
        }
        xdr.xdrEncodeInt(minorversion);
        xdr.xdrEncodeInt(argarray.length);
        for (nfs_argop4 op : argarray) {
            op.xdrEncode(xdr);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        tagBytes = XdrSupport.decodeOpaque(xdr, XdrSupport.MAX_STRING);
        tag = new String(tagBytes, java.nio.charset.StandardCharsets.UTF_8);
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
            if (!op.decodable()) {
                break;
            }
        }
        argarray = ops.toArray(new nfs_argop4[0]);
    }
}
