package org.tcnfs.nfs4.state;

import java.util.HashMap;
import java.util.Map;
import org.tcnfs.nfs4.vfs.Inode;

/**
 * The opens, lock states and byte-range locks on one file. Everything here is guarded by this object's
 * monitor. Once empty it is {@link #retired} and removed from the table; a thread that finds a retired
 * one looks the file up again.
 */
final class FileState {
    final Inode inode;
    final Map<StateOwner, OpenState> opens = new HashMap<>();
    final Map<StateOwner, LockState> lockStates = new HashMap<>();
    final ByteRangeLockSet locks = new ByteRangeLockSet();
    final LockWaiters waiters = new LockWaiters();
    boolean retired;

    FileState(Inode inode) {
        this.inode = inode;
    }

    boolean isEmpty() {
        return opens.isEmpty() && lockStates.isEmpty() && locks.isEmpty();
    }
}
