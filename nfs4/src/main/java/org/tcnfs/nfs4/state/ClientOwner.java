package org.tcnfs.nfs4.state;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import org.tcnfs.nfs4.xdr.XdrSupport;
import org.tcnfs.nfs4.xdr.client_owner4;

/**
 * What EXCHANGE_ID says about the client ({@code client_owner4}): who it is and which incarnation.
 *
 * @param ownerId the identity that survives client restarts
 * @param verifier 8 bytes that change with every client restart (copied)
 */
public record ClientOwner(OwnerId ownerId, byte[] verifier) {
    public ClientOwner {
        Objects.requireNonNull(ownerId, "ownerId");
        if (verifier.length != XdrSupport.NFS4_VERIFIER_SIZE) {
            throw new IllegalArgumentException("a verifier has 8 bytes, not " + verifier.length);
        }
        verifier = verifier.clone();
    }

    /** The value of a wire client owner. */
    public static ClientOwner of(client_owner4 wire) {
        return new ClientOwner(new OwnerId(wire.co_ownerid), wire.co_verifier.value);
    }

    @Override
    public byte[] verifier() {
        return verifier.clone();
    }

    /** Whether {@code other} carries the same verifier (the same client incarnation). */
    public boolean sameVerifier(ClientOwner other) {
        return Arrays.equals(verifier, other.verifier);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClientOwner c && c.ownerId.equals(ownerId) && Arrays.equals(c.verifier, verifier);
    }

    @Override
    public int hashCode() {
        return 31 * ownerId.hashCode() + Arrays.hashCode(verifier);
    }

    @Override
    public String toString() {
        return ownerId + "/" + HexFormat.of().formatHex(verifier);
    }
}
