package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code exist_lock_owner4}: a further lock of a lock owner, named by its lock stateid. */
public class exist_lock_owner4 implements XdrAble {
    public stateid4 lock_stateid = new stateid4();
    public int lock_seqid;

    public exist_lock_owner4() {
    }

    public exist_lock_owner4(stateid4 lock_stateid, int lock_seqid) {
        this.lock_stateid = lock_stateid;
        this.lock_seqid = lock_seqid;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        lock_stateid.xdrEncode(xdr);
        xdr.xdrEncodeInt(lock_seqid);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        lock_stateid = new stateid4();
        lock_stateid.xdrDecode(xdr);
        lock_seqid = xdr.xdrDecodeInt();
    }
}
