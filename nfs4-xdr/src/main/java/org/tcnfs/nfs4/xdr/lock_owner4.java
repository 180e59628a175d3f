package org.tcnfs.nfs4.xdr;

/** {@code lock_owner4}: typedef of {@link state_owner4}, the owner of byte-range locks. */
public class lock_owner4 extends state_owner4 {
    public lock_owner4() {
    }

    public lock_owner4(long clientid, byte[] owner) {
        super(clientid, owner);
    }
}
