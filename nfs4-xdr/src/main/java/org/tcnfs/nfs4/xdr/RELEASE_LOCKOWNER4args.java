package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** {@code RELEASE_LOCKOWNER4args} (RFC 7530 section 16.37): the lock owner whose state to forget. */
public class RELEASE_LOCKOWNER4args implements XdrAble {
    public lock_owner4 lock_owner = new lock_owner4();

    public RELEASE_LOCKOWNER4args() {
    }

    public RELEASE_LOCKOWNER4args(lock_owner4 lock_owner) {
        this.lock_owner = lock_owner;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        lock_owner.xdrEncode(xdr);
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        lock_owner = new lock_owner4();
        lock_owner.xdrDecode(xdr);
    }
}
