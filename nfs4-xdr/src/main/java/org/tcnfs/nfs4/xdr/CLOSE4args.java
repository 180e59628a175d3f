package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code CLOSE4args}: the open to close; {@link #seqid} is the NFSv4.0 open-owner sequence id. */
public class CLOSE4args implements XdrAble {
    public int seqid;
    public stateid4 open_stateid = new stateid4();

    public CLOSE4args() {
    }

    public CLOSE4args(int seqid, stateid4 open_stateid) {
        this.seqid = seqid;
        this.open_stateid = open_stateid;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(seqid);
        open_stateid.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        seqid = xdr.xdrDecodeInt();
        open_stateid = new stateid4();
        open_stateid.xdrDecode(xdr);
    }
}
