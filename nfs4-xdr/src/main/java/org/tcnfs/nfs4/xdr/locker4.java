package org.tcnfs.nfs4.xdr;

import java.io.IOException;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * {@code locker4}: who locks: a new lock owner ({@link #open_owner}, when {@link #new_lock_owner}) or one
 * that already has a lock stateid for the file ({@link #lock_owner}).
 */
public class locker4 implements XdrAble {
    public boolean new_lock_owner;
    public open_to_lock_owner4 open_owner;
    public exist_lock_owner4 lock_owner;

    public locker4() {
    }

    /** A new lock owner, through an open. */
    public static locker4 newOwner(open_to_lock_owner4 openOwner) {
        locker4 l = new locker4();
        l.new_lock_owner = true;
        l.open_owner = openOwner;
        return l;
    }

    /** A lock owner with a lock stateid. */
    public static locker4 existingOwner(exist_lock_owner4 lockOwner) {
        locker4 l = new locker4();
        l.lock_owner = lockOwner;
        return l;
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) throws OncRpcException, IOException {
        xdr.xdrEncodeBoolean(new_lock_owner);
        if (new_lock_owner) {
            open_owner.xdrEncode(xdr);
        } else {
            lock_owner.xdrEncode(xdr);
        }
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
        new_lock_owner = XdrSupport.decodeBoolean(xdr);
        open_owner = null;
        lock_owner = null;
        if (new_lock_owner) {
            open_owner = new open_to_lock_owner4();
            open_owner.xdrDecode(xdr);
        } else {
            lock_owner = new exist_lock_owner4();
            lock_owner.xdrDecode(xdr);
        }
    }
}
