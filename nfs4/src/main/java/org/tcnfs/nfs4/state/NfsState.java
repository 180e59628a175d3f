package org.tcnfs.nfs4.state;

import org.tcnfs.nfs4.status.BadStateIdException;
import org.tcnfs.nfs4.status.OldStateIdException;

/**
 * Something a stateid names: an open or a lock owner's locks on one file. Its {@code other} bytes never
 * change; its seqid starts at 1 and grows with every change (RFC 8881 8.2.2).
 *
 * <p>The mutable fields are guarded by the monitor of {@link #file}.
 */
abstract sealed class NfsState permits OpenState, LockState {
    final byte[] other;
    final StateKey key;
    final ClientState client;
    final FileState file;
    /** The open owner or lock owner. */
    final StateOwner owner;
    /** The NFSv4.0 sequence of {@link #owner}; {@code null} for NFSv4.1 states. */
    final OwnerSequence sequence;
    private int seqid = 1;
    private boolean closed;

    NfsState(byte[] other, ClientState client, FileState file, StateOwner owner, OwnerSequence sequence) {
        this.other = other.clone();
        this.key = StateKey.of(this.other);
        this.client = client;
        this.file = file;
        this.owner = owner;
        this.sequence = sequence;
    }

    /** The stateid of this state now. */
    StateId stateId() {
        return new StateId(seqid, other);
    }

    /** The current seqid. */
    int seqid() {
        return seqid;
    }

    /** A rollback puts the seqid back to what it was before the rolled-back compound. */
    void restoreSeqid(int saved) {
        seqid = saved;
    }

    /** Records a change: the seqid grows, wrapping from 0xffffffff to 1 (0 means "current" on the wire). */
    void bump() {
        seqid = seqid == -1 ? 1 : seqid + 1;
    }

    /**
     * Checks the seqid a client sent with this state's stateid: 0 stands for the current one in NFSv4.1,
     * but is an ordinary (old) seqid in NFSv4.0 (RFC 7530 9.1.4).
     *
     * @throws OldStateIdException if it is older than the current one
     * @throws BadStateIdException if it is newer (the server never issued it)
     */
    void checkSeqid(int requested) throws OldStateIdException, BadStateIdException {
        if (requested == seqid || (requested == 0 && client.minorVersion != 0)) {
            return;
        }
        if (Integer.compareUnsigned(requested, seqid) < 0) {
            throw new OldStateIdException("seqid " + Integer.toUnsignedString(requested) + " is older than "
                    + Integer.toUnsignedString(seqid));
        }
        throw new BadStateIdException("seqid " + Integer.toUnsignedString(requested) + " was never issued");
    }

    boolean isClosed() {
        return closed;
    }

    void markClosed() {
        closed = true;
    }

    /** A rollback brings back a state the rolled-back compound closed. */
    void reopen() {
        closed = false;
    }
}
