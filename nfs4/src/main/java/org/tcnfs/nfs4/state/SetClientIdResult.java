package org.tcnfs.nfs4.state;

import java.util.HexFormat;
import java.util.Objects;
import org.tcnfs.nfs4.xdr.XdrSupport;

/** What SETCLIENTID found or made (RFC 7530 section 16.33). */
public sealed interface SetClientIdResult {

    /**
     * An unconfirmed client record: the client id to use and the verifier its SETCLIENTID_CONFIRM must
     * present.
     *
     * @param clientId the client id (the confirmed record's own for a callback update, else a new one)
     * @param confirmVerifier 8 bytes (copied)
     */
    record Accepted(long clientId, byte[] confirmVerifier) implements SetClientIdResult {
        public Accepted {
            if (confirmVerifier.length != XdrSupport.NFS4_VERIFIER_SIZE) {
                throw new IllegalArgumentException("a verifier has 8 bytes");
            }
            confirmVerifier = confirmVerifier.clone();
        }

        @Override
        public byte[] confirmVerifier() {
            return confirmVerifier.clone();
        }

        @Override
        public String toString() {
            return "Accepted[" + Long.toHexString(clientId) + ", " + HexFormat.of().formatHex(confirmVerifier) + "]";
        }
    }

    /**
     * NFS4ERR_CLID_INUSE: another principal's confirmed client with state uses the identity; its callback
     * address goes back in the reply.
     */
    record InUse(ClientCallback holder) implements SetClientIdResult {
        public InUse {
            Objects.requireNonNull(holder, "holder");
        }
    }
}
