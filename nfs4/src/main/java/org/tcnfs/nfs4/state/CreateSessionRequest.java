package org.tcnfs.nfs4.state;

import java.util.Objects;

/**
 * The arguments of CREATE_SESSION as values ({@code CREATE_SESSION4args}).
 *
 * @param clientId the client id from EXCHANGE_ID
 * @param sequence the client's CREATE_SESSION sequence id
 * @param flags the CREATE_SESSION4_FLAG_* the client asks for
 * @param foreChannel the fore channel the client asks for
 * @param backChannel the back channel the client offers
 * @param callbackProgram the client's callback program number
 */
public record CreateSessionRequest(
        long clientId,
        int sequence,
        int flags,
        ChannelAttributes foreChannel,
        ChannelAttributes backChannel,
        int callbackProgram) {
    public CreateSessionRequest {
        Objects.requireNonNull(foreChannel, "foreChannel");
        Objects.requireNonNull(backChannel, "backChannel");
    }
}
