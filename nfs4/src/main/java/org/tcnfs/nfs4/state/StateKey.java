package org.tcnfs.nfs4.state;

import org.tcnfs.nfs4.xdr.XdrSupport;

/** The 12 {@code other} bytes of a stateid as a compact map key. */
record StateKey(long high, int low) {

    static StateKey of(byte[] other) {
        if (other.length != XdrSupport.NFS4_OTHER_SIZE) {
            throw new IllegalArgumentException("stateid other must have 12 bytes");
        }
        long high = 0;
        for (int i = 0; i < 8; i++) {
            high = (high << 8) | (other[i] & 0xff);
        }
        int low = 0;
        for (int i = 8; i < 12; i++) {
            low = (low << 8) | (other[i] & 0xff);
        }
        return new StateKey(high, low);
    }

    static StateKey of(StateId id) {
        return of(id.other());
    }
}
