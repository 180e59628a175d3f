package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code LOCKU4args}: unlock a range held under {@link #lock_stateid}; {@link #seqid} is NFSv4.0's. */
public class LOCKU4args implements XdrAble {
    public int locktype;
    public int seqid;
    public stateid4 lock_stateid = new stateid4();
    public long offset;
    public long length;

    public LOCKU4args() {
    }

    public LOCKU4args(int locktype, int seqid, stateid4 lock_stateid, long offset, long length) {
        this.locktype = locktype;
        this.seqid = seqid;
        this.lock_stateid = lock_stateid;
        this.offset = offset;
        this.length = length;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(locktype);
        xdr.xdrEncodeInt(seqid);
        lock_stateid.xdrEncode(xdr);
        xdr.xdrEncodeLong(offset);
        xdr.xdrEncodeLong(length);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        locktype = xdr.xdrDecodeInt();
        seqid = xdr.xdrDecodeInt();
        lock_stateid = new stateid4();
        lock_stateid.xdrDecode(xdr);
        offset = xdr.xdrDecodeLong();
        length = xdr.xdrDecodeLong();
    }
}
