package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code OPEN_CONFIRM4args} (RFC 7530 section 16.18): the open to confirm and the open owner's seqid. */
public class OPEN_CONFIRM4args implements XdrAble {
    public stateid4 open_stateid = new stateid4();
    public int seqid;

    public OPEN_CONFIRM4args() {
    }

    public OPEN_CONFIRM4args(stateid4 open_stateid, int seqid) {
        this.open_stateid = open_stateid;
        this.seqid = seqid;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        open_stateid.xdrEncode(xdr);
        xdr.xdrEncodeInt(seqid);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        open_stateid = new stateid4();
        open_stateid.xdrDecode(xdr);
        seqid = xdr.xdrDecodeInt();
    }
}
