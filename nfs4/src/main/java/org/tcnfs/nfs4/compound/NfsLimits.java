package org.tcnfs.nfs4.compound;

import java.time.Duration;
import java.util.Objects;

/**
 * The protocol limits a server offers.
 *
 * @param maxOperations most operations per COMPOUND a session may negotiate
 * @param maxRequestBytes largest COMPOUND request a session may negotiate
 * @param maxResponseBytes largest COMPOUND reply a session may negotiate
 * @param maxRead largest READ the server answers ({@code maxread})
 * @param maxWrite largest WRITE the server accepts ({@code maxwrite})
 * @param maxSessionSlots most slots in a session's fore channel
 * @param lease how long a client's state lives without renewal
 * @param grace how long after a start only reclaims are accepted
 */
public record NfsLimits(
        int maxOperations,
        int maxRequestBytes,
        int maxResponseBytes,
        int maxRead,
        int maxWrite,
        int maxSessionSlots,
        Duration lease,
        Duration grace) {

    /** 4,096 operations and 16 MiB per request, 1 MiB reads and writes, 90 s leases and grace. */
    public static final NfsLimits DEFAULTS = new NfsLimits(
            4096, 16 * 1024 * 1024 + 64 * 1024, 16 * 1024 * 1024 + 64 * 1024, 1024 * 1024, 1024 * 1024, 64,
            Duration.ofSeconds(90), Duration.ofSeconds(90));

    public NfsLimits {
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(grace, "grace");
        if (maxOperations < 2 || maxRequestBytes < 1024 || maxResponseBytes < 1024 || maxRead < 4096
                || maxWrite < 4096 || maxSessionSlots < 1) {
            throw new IllegalArgumentException("limits too small: " + this);
        }
        if (lease.isNegative() || lease.isZero() || grace.isNegative()) {
            throw new IllegalArgumentException("lease must be positive and grace not negative");
        }
    }
}
