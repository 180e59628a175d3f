package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code READ4args}: which bytes of the current file to read, under which stateid. */
public class READ4args implements XdrAble {
    public stateid4 stateid = new stateid4();
    /** {@code offset4}, unsigned. */
    public long offset;
    /** {@code count4}, unsigned. */
    public int count;

    public READ4args() {
    }

    public READ4args(stateid4 stateid, long offset, int count) {
        this.stateid = stateid;
        this.offset = offset;
        this.count = count;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        stateid.xdrEncode(xdr);
        xdr.xdrEncodeLong(offset);
        xdr.xdrEncodeInt(count);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        stateid = new stateid4();
        stateid.xdrDecode(xdr);
        offset = xdr.xdrDecodeLong();
        count = xdr.xdrDecodeInt();
    }
}
