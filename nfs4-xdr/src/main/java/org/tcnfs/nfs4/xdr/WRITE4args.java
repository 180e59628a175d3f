package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code WRITE4args}: where to write, how durably, and the bytes.
 *
 * <p>Decoded {@link #data} is the WRITE's own bytes, copied out of the request (bounded by the bytes actually
 * received), so many WRITEs in one COMPOUND cost their data once. Encoding leaves {@link #data} untouched.
 */
public class WRITE4args implements XdrAble {
    public stateid4 stateid = new stateid4();
    /** {@code offset4}, unsigned. */
    public long offset;
    /** A {@link stable_how4} value. */
    public int stable;
    public ByteBuffer data = ByteBuffer.allocate(0);

    public WRITE4args() {
    }

    public WRITE4args(stateid4 stateid, long offset, int stable, ByteBuffer data) {
        this.stateid = stateid;
        this.offset = offset;
        this.stable = stable;
        this.data = data;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        stateid.xdrEncode(xdr);
        xdr.xdrEncodeLong(offset);
        xdr.xdrEncodeInt(stable);
        xdr.xdrEncodeByteBuffer(data.duplicate());
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        stateid = new stateid4();
        stateid.xdrDecode(xdr);
        offset = xdr.xdrDecodeLong();
        stable = xdr.xdrDecodeInt();
        data = ByteBuffer.wrap(XdrSupport.decodeOpaqueWithinRequest(xdr));
    }
}
