package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code change_info4}: a directory's change attribute before and after an operation, and whether the
 * two values were taken atomically with it (OPEN, CREATE, REMOVE, RENAME, LINK).
 */
public class change_info4 implements XdrAble {
    public boolean atomic;
    /** changeid4 before the operation. */
    public long before;
    /** changeid4 after the operation. */
    public long after;

    public change_info4() {
    }

    public change_info4(boolean atomic, long before, long after) {
        this.atomic = atomic;
        this.before = before;
        this.after = after;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeBoolean(atomic);
        xdr.xdrEncodeLong(before);
        xdr.xdrEncodeLong(after);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        atomic = XdrSupport.decodeBoolean(xdr);
        before = xdr.xdrDecodeLong();
        after = xdr.xdrDecodeLong();
    }
}
