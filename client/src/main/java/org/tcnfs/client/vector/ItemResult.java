package org.tcnfs.client.vector;

import java.util.Objects;
import java.util.Optional;
import org.tcnfs.nfs4.status.NfsStatus;

/**
 * The result of one item of a vectorized call.
 *
 * @param outcome what became of the item
 * @param status NFS4_OK for {@link Outcome#DONE} and {@link Outcome#UNDONE}, the failing operation's status for
 *        {@link Outcome#FAILED}, {@code null} for {@link Outcome#NOT_RUN}
 * @param value the item's value (read data, attributes, entries ...) when it is {@link Outcome#DONE} and the
 *        call has values, else {@code null}
 * @param <T> the value type ({@link Void} for calls without values)
 */
public record ItemResult<T>(Outcome outcome, NfsStatus status, T value) {
    public ItemResult {
        Objects.requireNonNull(outcome, "outcome");
        if (outcome == Outcome.NOT_RUN ? status != null : status == null) {
            throw new IllegalArgumentException(outcome + " with status " + status);
        }
        if (outcome == Outcome.FAILED && status == NfsStatus.OK) {
            throw new IllegalArgumentException("FAILED with NFS4_OK");
        }
    }

    static <T> ItemResult<T> done(T value) {
        return new ItemResult<>(Outcome.DONE, NfsStatus.OK, value);
    }

    static <T> ItemResult<T> failed(NfsStatus status) {
        return new ItemResult<>(Outcome.FAILED, status, null);
    }

    static <T> ItemResult<T> notRun() {
        return new ItemResult<>(Outcome.NOT_RUN, null, null);
    }

    static <T> ItemResult<T> undone() {
        return new ItemResult<>(Outcome.UNDONE, NfsStatus.OK, null);
    }

    public boolean isDone() {
        return outcome == Outcome.DONE;
    }

    /** The value, empty unless the item is done and has one. */
    public Optional<T> optionalValue() {
        return Optional.ofNullable(value);
    }
}
