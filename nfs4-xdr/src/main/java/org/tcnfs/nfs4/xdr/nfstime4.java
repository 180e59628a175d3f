package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code nfstime4}: seconds since the epoch and nanoseconds. */
public class nfstime4 implements XdrAble {
    public long seconds;
    public int nseconds;

    public nfstime4() {
    }

    public nfstime4(long seconds, int nseconds) {
        this.seconds = seconds;
        this.nseconds = nseconds;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeLong(seconds);
        xdr.xdrEncodeInt(nseconds);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        seconds = xdr.xdrDecodeLong();
        nseconds = xdr.xdrDecodeInt();
    }
}
