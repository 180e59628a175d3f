package org.tcnfs.nfs4.state;

import java.io.IOException;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.BadXdrOncRpcException;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.status.BadSeqIdException;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NfsStatus;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.xdr.nfs_opnum4;
import org.tcnfs.nfs4.xdr.nfs_resop4;

/**
 * The NFSv4.0 request sequence of one open owner or lock owner (RFC 7530 section 9.1.7): the seqid of its
 * last request and that request's reply, and, for an open owner, whether OPEN_CONFIRM confirmed it.
 *
 * <p>An operation that carries the owner's seqid (OPEN, OPEN_CONFIRM, OPEN_DOWNGRADE, CLOSE, LOCK, LOCKU)
 * runs its work through {@link #run}, which decides by the seqid:
 * <ul>
 *   <li>the seqid and operation of the last request: a retransmission, answered with the last reply
 *       (status and body; a replayed OPEN also makes its file the current file handle again), without
 *       running anything;</li>
 *   <li>the last seqid + 1 (wrapping from 0xffffffff to 0), any seqid for an owner that has none yet, or any
 *       seqid for an OPEN of an open owner that was never confirmed (the client starts that owner over):
 *       the work runs, and its outcome becomes the last request and reply unless it ended with one of
 *       the statuses after which RFC 7530 9.1.7 does not advance the seqid (STALE_CLIENTID, STALE_STATEID,
 *       BAD_STATEID, BAD_SEQID, BADXDR, RESOURCE, NOFILEHANDLE, MOVED);</li>
 *   <li>anything else: NFS4ERR_BAD_SEQID, not recorded.</li>
 * </ul>
 *
 * <p>Thread-safe: a request holds the owner's lock while it runs, so a retransmission that arrives while
 * the original still runs waits for it and then gets its reply. Lock order: an open owner before a lock
 * owner, both before any lock of the {@link OpenStateTable}.
 */
public final class OwnerSequence {
    private static final Set<NfsStatus> NOT_SEQUENCED = EnumSet.of(NfsStatus.STALE_CLIENTID,
            NfsStatus.STALE_STATEID, NfsStatus.BAD_STATEID, NfsStatus.BAD_SEQID, NfsStatus.BADXDR,
            NfsStatus.RESOURCE, NfsStatus.NOFILEHANDLE, NfsStatus.MOVED);

    /** The work of one operation, run under the owner's sequence. */
    @FunctionalInterface
    public interface Step {
        void run() throws IOException;
    }

    private final NfsClient client;
    private final StateOwner owner;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile boolean confirmed;
    private volatile long lastUsedMillis;

    // guarded by lock
    private boolean started;
    private int lastSeqid;
    private int lastOpcode;
    private int lastStatus;
    private XdrAble lastBody;
    private Inode lastFile;
    private volatile StateKey lastClosed;

    private OwnerSequence(NfsClient client, StateOwner owner, Clock clock, boolean confirmed) {
        this.client = Objects.requireNonNull(client);
        this.owner = Objects.requireNonNull(owner);
        this.clock = Objects.requireNonNull(clock);
        this.confirmed = confirmed;
        this.lastUsedMillis = clock.millis();
    }

    /** The sequence of a new open owner: unconfirmed until OPEN_CONFIRM. */
    static OwnerSequence ofOpenOwner(NfsClient client, StateOwner owner, Clock clock) {
        return new OwnerSequence(client, owner, clock, false);
    }

    /** The sequence of a lock owner (lock owners need no confirmation). */
    static OwnerSequence ofLockOwner(NfsClient client, StateOwner owner, Clock clock) {
        return new OwnerSequence(client, owner, clock, true);
    }

    /** The client the owner belongs to. */
    public NfsClient client() {
        return client;
    }

    /** The owner's identity. */
    public StateOwner owner() {
        return owner;
    }

    /** Whether OPEN_CONFIRM confirmed this open owner (always true for a lock owner). */
    public boolean isConfirmed() {
        return confirmed;
    }

    /**
     * Runs {@code step} as the request with {@code seqid} of this owner, or answers a retransmission from
     * the last reply (see the class comment). {@code step} fills {@code result} as an operation does, or
     * throws.
     *
     * @param opcode the operation ({@code nfs_opnum4}); a retransmission must repeat it
     * @throws BadSeqIdException if {@code seqid} is neither the last one nor the next
     */
    public void run(CompoundContext context, int seqid, int opcode, nfs_resop4 result, Step step)
            throws IOException {
        lock.lock();
        try {
            touch();
            boolean retransmission = isRetransmission(seqid, opcode);
            if (opcode == nfs_opnum4.OP_OPEN) {
                context.checkPlannedRetransmission(retransmission);
            }
            if (retransmission) {
                result.status = lastStatus;
                result.body = lastBody;
                if (lastFile != null) {
                    context.setCurrentInode(lastFile);
                }
                return;
            }
            boolean next = started && seqid == lastSeqid + 1;
            boolean restart = opcode == nfs_opnum4.OP_OPEN && !confirmed;
            if (started && !next && !restart) {
                throw new BadSeqIdException("seqid " + Integer.toUnsignedString(seqid) + ", expected "
                        + Integer.toUnsignedString(lastSeqid + 1));
            }
            execute(context, seqid, opcode, result, step);
        } finally {
            lock.unlock();
        }
    }

    /**
     * What a request with {@code seqid} and {@code opcode} would be answered now if it is a retransmission of
     * this owner's last request (see the class comment): the last reply's status and, for an OPEN, the file it
     * made current; empty if the request would run (or be refused). A compound's plan asks, before the request
     * runs; {@link CompoundContext#checkPlannedRetransmission} catches a change in between.
     */
    public Optional<Retransmission> retransmissionOf(int seqid, int opcode) {
        lock.lock();
        try {
            return isRetransmission(seqid, opcode)
                    ? Optional.of(new Retransmission(lastStatus, lastFile))
                    : Optional.empty();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The answer to a retransmitted request: the status of the last reply and the file that an OPEN made current
     * ({@code null} for other operations or an OPEN that failed).
     */
    public record Retransmission(int status, Inode file) {
    }

    private boolean isRetransmission(int seqid, int opcode) {
        return started && seqid == lastSeqid && opcode == lastOpcode;
    }

    /**
     * Runs {@code step} for a lock owner that a LOCK names for the first time (open_to_lock_owner4): the
     * request is sequenced by its open owner, and when the lock is granted this owner's sequence starts
     * (again) at {@code seqid}.
     */
    public void runFirst(CompoundContext context, int seqid, int opcode, nfs_resop4 result, Step step)
            throws IOException {
        lock.lock();
        try {
            touch();
            step.run();
            if (result.status == NfsStatus.OK.code()) {
                record(seqid, opcode, result.status, result.body, null);
            }
        } finally {
            lock.unlock();
        }
    }

    private void execute(CompoundContext context, int seqid, int opcode, nfs_resop4 result, Step step)
            throws IOException {
        try {
            step.run();
        } catch (IOException | RuntimeException e) {
            NfsStatus status = statusOf(e);
            if (!NOT_SEQUENCED.contains(status)) {
                record(seqid, opcode, status.code(), null, null);
            }
            throw e;
        }
        if (!NOT_SEQUENCED.contains(NfsStatus.of(result.status))) {
            Inode file = opcode == nfs_opnum4.OP_OPEN && result.status == NfsStatus.OK.code()
                    && context.hasCurrentInode() ? context.currentInode() : null;
            record(seqid, opcode, result.status, result.body, file);
        }
    }

    private void record(int seqid, int opcode, int status, XdrAble body, Inode file) {
        started = true;
        lastSeqid = seqid;
        lastOpcode = opcode;
        lastStatus = status;
        lastBody = body;
        lastFile = file;
    }

    /** The status the executor will send for {@code e} (see {@code OperationExecutor}). */
    private static NfsStatus statusOf(Exception e) {
        if (e instanceof NfsException ne) {
            return ne.status();
        }
        if (e instanceof OncRpcException || e instanceof BadXdrOncRpcException) {
            return NfsStatus.BADXDR;
        }
        return e instanceof IOException ? NfsStatus.IO : NfsStatus.SERVERFAULT;
    }

    private void touch() {
        lastUsedMillis = clock.millis();
    }

    /** When a request of this owner last ran or was looked up. */
    long lastUsedMillis() {
        return lastUsedMillis;
    }

    /** OPEN_CONFIRM succeeded. */
    void confirm() {
        confirmed = true;
    }

    /** Marks the owner as used now (it is being looked up for a request). */
    void used() {
        touch();
    }

    /**
     * Whether no request ran for {@code idleMillis} and none runs now; if so, the owner stays unusable for
     * requests until the caller forgot it (the check holds the lock only briefly and never waits).
     */
    boolean idle(long nowMillis, long idleMillis) {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            return nowMillis - lastUsedMillis > idleMillis;
        } finally {
            lock.unlock();
        }
    }

    /** Under a request of this owner: remembers {@code key} as its last closed open; returns the previous. */
    StateKey swapLastClosed(StateKey key) {
        StateKey previous = lastClosed;
        lastClosed = key;
        return previous;
    }

    /** The open this owner closed last, or {@code null}. */
    StateKey lastClosed() {
        return lastClosed;
    }

    @Override
    public String toString() {
        return "owner " + owner + (confirmed ? "" : " (unconfirmed)");
    }
}
