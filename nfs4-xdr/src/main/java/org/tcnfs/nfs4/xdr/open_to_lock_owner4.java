package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code open_to_lock_owner4}: the first lock of a lock owner on a file, named through an open stateid.
 * The two sequence ids are NFSv4.0's.
 */
public class open_to_lock_owner4 implements XdrAble {
    public int open_seqid;
    public stateid4 open_stateid = new stateid4();
    public int lock_seqid;
    public lock_owner4 lock_owner = new lock_owner4();

    public open_to_lock_owner4() {
    }

    public open_to_lock_owner4(int open_seqid, stateid4 open_stateid, int lock_seqid, lock_owner4 lock_owner) {
        this.open_seqid = open_seqid;
        this.open_stateid = open_stateid;
        this.lock_seqid = lock_seqid;
        this.lock_owner = lock_owner;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(open_seqid);
        open_stateid.xdrEncode(xdr);
        xdr.xdrEncodeInt(lock_seqid);
        lock_owner.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        open_seqid = xdr.xdrDecodeInt();
        open_stateid = new stateid4();
        open_stateid.xdrDecode(xdr);
        lock_seqid = xdr.xdrDecodeInt();
        lock_owner = new lock_owner4();
        lock_owner.xdrDecode(xdr);
    }
}
