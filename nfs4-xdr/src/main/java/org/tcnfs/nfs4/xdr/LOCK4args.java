package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code LOCK4args}: lock {@link #length} bytes from {@link #offset} ({@code 0xffffffffffffffff}: to the
 * end of the file) as {@link #locktype} ({@link nfs_lock_type4}) for {@link #locker}.
 */
public class LOCK4args implements XdrAble {
    public int locktype;
    public boolean reclaim;
    public long offset;
    public long length;
    public locker4 locker = new locker4();

    public LOCK4args() {
    }

    public LOCK4args(int locktype, boolean reclaim, long offset, long length, locker4 locker) {
        this.locktype = locktype;
        this.reclaim = reclaim;
        this.offset = offset;
        this.length = length;
        this.locker = locker;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeInt(locktype);
        xdr.xdrEncodeBoolean(reclaim);
        xdr.xdrEncodeLong(offset);
        xdr.xdrEncodeLong(length);
        locker.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        locktype = xdr.xdrDecodeInt();
        reclaim = XdrSupport.decodeBoolean(xdr);
        offset = xdr.xdrDecodeLong();
        length = xdr.xdrDecodeLong();
        locker = new locker4();
        locker.xdrDecode(xdr);
    }
}
