package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code LOCK4resok}: the lock owner's lock stateid for the file. */
public class LOCK4resok implements XdrAble {
    public stateid4 lock_stateid = new stateid4();

    public LOCK4resok() {
    }

    public LOCK4resok(stateid4 lock_stateid) {
        this.lock_stateid = lock_stateid;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        lock_stateid.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        lock_stateid = new stateid4();
        lock_stateid.xdrDecode(xdr);
    }
}
