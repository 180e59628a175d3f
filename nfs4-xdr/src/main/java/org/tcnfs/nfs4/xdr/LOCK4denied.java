package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code LOCK4denied}: a lock that conflicts with the one asked for: its range, type and owner. */
public class LOCK4denied implements XdrAble {
    public long offset;
    public long length;
    public int locktype;
    public lock_owner4 owner = new lock_owner4();

    public LOCK4denied() {
    }

    public LOCK4denied(long offset, long length, int locktype, lock_owner4 owner) {
        this.offset = offset;
        this.length = length;
        this.locktype = locktype;
        this.owner = owner;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeLong(offset);
        xdr.xdrEncodeLong(length);
        xdr.xdrEncodeInt(locktype);
        owner.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        offset = xdr.xdrDecodeLong();
        length = xdr.xdrDecodeLong();
        locktype = xdr.xdrDecodeInt();
        owner = new lock_owner4();
        owner.xdrDecode(xdr);
    }
}
