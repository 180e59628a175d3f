package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code OPEN_DOWNGRADE4args}: the open and the smaller share access and deny it keeps. */
public class OPEN_DOWNGRADE4args implements XdrAble {
    public stateid4 open_stateid = new stateid4();
    public int seqid;
    public int share_access;
    public int share_deny;

    public OPEN_DOWNGRADE4args() {
    }

    public OPEN_DOWNGRADE4args(stateid4 open_stateid, int seqid, int share_access, int share_deny) {
        this.open_stateid = open_stateid;
        this.seqid = seqid;
        this.share_access = share_access;
        this.share_deny = share_deny;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        open_stateid.xdrEncode(xdr);
        xdr.xdrEncodeInt(seqid);
        xdr.xdrEncodeInt(share_access);
        xdr.xdrEncodeInt(share_deny);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        open_stateid = new stateid4();
        open_stateid.xdrDecode(xdr);
        seqid = xdr.xdrDecodeInt();
        share_access = xdr.xdrDecodeInt();
        share_deny = xdr.xdrDecodeInt();
    }
}
