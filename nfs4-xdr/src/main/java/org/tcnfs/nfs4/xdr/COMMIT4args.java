package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code COMMIT4args}: the range of the current file to make durable (count 0: to the end). */
public class COMMIT4args implements XdrAble {
    /** {@code offset4}, unsigned. */
    public long offset;
    /** {@code count4}, unsigned. */
    public int count;

    public COMMIT4args() {
    }

    public COMMIT4args(long offset, int count) {
        this.offset = offset;
        this.count = count;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeLong(offset);
        xdr.xdrEncodeInt(count);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        offset = xdr.xdrDecodeLong();
        count = xdr.xdrDecodeInt();
    }
}
