package org.tcnfs.nfs4.state;

import java.util.Arrays;
import java.util.HexFormat;
import org.tcnfs.nfs4.xdr.XdrSupport;

/**
 * The identity of an open owner or a lock owner ({@code state_owner4}): the client it belongs to and the
 * opaque name the client gave it. Equality is by content.
 *
 * @param clientId the server-assigned id of the owning client
 * @param owner the client's name for the owner (at most 1024 bytes, copied)
 */
public record StateOwner(long clientId, byte[] owner) {

    public StateOwner {
        if (owner.length > XdrSupport.NFS4_OPAQUE_LIMIT) {
            throw new IllegalArgumentException("owner longer than " + XdrSupport.NFS4_OPAQUE_LIMIT + " bytes");
        }
        owner = owner.clone();
    }

    @Override
    public byte[] owner() {
        return owner.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StateOwner s && s.clientId == clientId && Arrays.equals(s.owner, owner);
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(clientId) + Arrays.hashCode(owner);
    }

    @Override
    public String toString() {
        return Long.toHexString(clientId) + "/" + HexFormat.of().formatHex(owner);
    }
}
