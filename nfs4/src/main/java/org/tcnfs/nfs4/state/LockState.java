package org.tcnfs.nfs4.state;

/**
 * The byte-range locks of one lock owner on one file, reached through the open it was created with. The
 * locks themselves live in the file's {@link ByteRangeLockSet} under the lock owner's identity. Guarded by
 * the monitor of its file.
 */
final class LockState extends NfsState {
    final OpenState open;
    /** How many byte-range locks of the owner its client's memory account is charged for. */
    int chargedRanges;

    LockState(byte[] other, ClientState client, FileState file, StateOwner owner, OpenState open,
            OwnerSequence sequence) {
        super(other, client, file, owner, sequence);
        this.open = open;
    }
}
