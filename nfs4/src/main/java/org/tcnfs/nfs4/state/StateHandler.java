package org.tcnfs.nfs4.state;

import java.time.Clock;
import java.util.Objects;
import org.tcnfs.nfs4.compound.NfsLimits;

/**
 * All client, session, open and lock state of one server. Placeholder shape; the state layer fills it in.
 */
public class StateHandler {
    private final NfsLimits limits;
    private final Clock clock;
    private final OpenStateTable opens = new OpenStateTable();

    public StateHandler(NfsLimits limits, Clock clock) {
        this.limits = Objects.requireNonNull(limits);
        this.clock = Objects.requireNonNull(clock);
    }

    public NfsLimits limits() {
        return limits;
    }

    public Clock clock() {
        return clock;
    }

    /** Opens, locks and their stateids. */
    public OpenStateTable opens() {
        return opens;
    }
}
