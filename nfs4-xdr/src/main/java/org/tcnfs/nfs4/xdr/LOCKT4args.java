package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code LOCKT4args}: would this lock, by {@link #owner}, conflict with one held? */
public class LOCKT4args implements XdrAble {
    public int locktype;
    public long offset;
    public long length;
    public lock_owner4 owner = new lock_owner4();

    public LOCKT4args() {
    }

    public LOCKT4args(int locktype, long offset, long length, lock_owner4 owner) {
        this.locktype = locktype;
        this.offset = offset;
        this.length = length;
        this.owner = owner;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(locktype);
        xdr.xdrEncodeLong(offset);
        xdr.xdrEncodeLong(length);
        owner.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        locktype = xdr.xdrDecodeInt();
        offset = xdr.xdrDecodeLong();
        length = xdr.xdrDecodeLong();
        owner = new lock_owner4();
        owner.xdrDecode(xdr);
    }
}
