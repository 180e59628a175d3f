package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code READ4resok}: whether the read reached the end of the file, and the bytes read.
 *
 * <p>{@link #data} holds the bytes between its position and limit. Encoding leaves it untouched (it works
 * on a duplicate), so a result can be encoded more than once (reply cache). Decoding copies the bytes out
 * of the stream.
 */
public class READ4resok implements XdrAble {
    public boolean eof;
    public ByteBuffer data = ByteBuffer.allocate(0);

    public READ4resok() {
    }

    public READ4resok(boolean eof, ByteBuffer data) {
        this.eof = eof;
        this.data = data;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeBoolean(eof);
        xdr.xdrEncodeByteBuffer(data.duplicate());
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        eof = XdrSupport.decodeBoolean(xdr);
        data = ByteBuffer.wrap(XdrSupport.decodeOpaqueWithinRequest(xdr));
    }
}
