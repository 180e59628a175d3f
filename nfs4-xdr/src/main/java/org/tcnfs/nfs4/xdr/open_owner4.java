package org.tcnfs.nfs4.xdr;

/** {@code open_owner4}: typedef of {@link state_owner4}, the owner of opens. */
public class open_owner4 extends state_owner4 {
    public open_owner4() {
    }

    public open_owner4(long clientid, byte[] owner) {
        super(clientid, owner);
    }
}
