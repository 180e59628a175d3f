package org.tcnfs.nfs4.compound;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.Objects;
import org.tcnfs.nfs4.state.StateHandler;
import org.tcnfs.nfs4.vfs.FileSystemProvider;

/**
 * What every request of one server shares: its file systems, its state, its limits, its clock, and the
 * verifier that changes with every start (WRITE and COMMIT verifiers, EXCHANGE_ID's server owner).
 */
public final class ServerContext {
    private final FileSystemProvider fileSystems;
    private final StateHandler state;
    private final NfsLimits limits;
    private final Clock clock;
    private final byte[] bootVerifier;

    public ServerContext(FileSystemProvider fileSystems, StateHandler state, NfsLimits limits, Clock clock) {
        this.fileSystems = Objects.requireNonNull(fileSystems);
        this.state = Objects.requireNonNull(state);
        this.limits = Objects.requireNonNull(limits);
        this.clock = Objects.requireNonNull(clock);
        this.bootVerifier = new byte[8];
        new SecureRandom().nextBytes(bootVerifier);
    }

    public FileSystemProvider fileSystems() {
        return fileSystems;
    }

    public StateHandler state() {
        return state;
    }

    public NfsLimits limits() {
        return limits;
    }

    public Clock clock() {
        return clock;
    }

    /** 8 random bytes chosen at start; a client seeing a new value knows the server restarted. */
    public byte[] bootVerifier() {
        return bootVerifier.clone();
    }
}
