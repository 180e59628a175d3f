package org.tcnfs.nfs4.state;

import java.util.Objects;

/**
 * What EXCHANGE_ID found or made.
 *
 * @param client the client record
 * @param sequenceId the {@code csa_sequence} the client's next CREATE_SESSION must carry
 * @param confirmed whether the record is confirmed ({@code EXCHGID4_FLAG_CONFIRMED_R})
 */
public record ExchangeIdResult(NfsClient client, int sequenceId, boolean confirmed) {
    public ExchangeIdResult {
        Objects.requireNonNull(client, "client");
    }

    static ExchangeIdResult of(NfsClient client) {
        return new ExchangeIdResult(client, client.createSessionSequence() + 1, client.isConfirmed());
    }
}
