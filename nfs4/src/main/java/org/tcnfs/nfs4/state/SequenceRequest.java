package org.tcnfs.nfs4.state;

import java.util.Objects;

/**
 * The arguments of SEQUENCE as values ({@code SEQUENCE4args}).
 *
 * @param sessionId the session
 * @param sequenceId the request's sequence id on its slot
 * @param slotId the slot
 * @param highestSlotId the highest slot the client uses now
 * @param cacheThis whether the client asks the server to keep the whole reply for retransmissions
 * @param fingerprint identifies the request's content, so a new request that reuses a sequence id is told
 *     from a retransmission ({@link org.tcnfs.nfs4.compound.CompoundContext#requestFingerprint()})
 */
public record SequenceRequest(SessionId sessionId, int sequenceId, int slotId, int highestSlotId, boolean cacheThis,
        long fingerprint) {
    public SequenceRequest {
        Objects.requireNonNull(sessionId, "sessionId");
    }
}
