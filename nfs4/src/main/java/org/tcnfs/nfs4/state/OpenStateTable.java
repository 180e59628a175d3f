package org.tcnfs.nfs4.state;

import java.io.IOException;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.vfs.Inode;

/**
 * Opens (share reservations), byte-range locks and their stateids. Placeholder shape; the open and lock
 * layer fills it in.
 */
public class OpenStateTable {

    /** What an I/O operation means to do with a file, for stateid checks. */
    public enum IoMode {
        READ,
        WRITE
    }

    /**
     * Checks that {@code stateId} allows {@code mode} I/O on {@code inode} (RFC 8881 8.2 and 9.1.2):
     * special stateids, open and lock stateids of this client, share modes and mandatory lock conflicts.
     * Resolves the current-stateid marker through {@code context}.
     *
     * @throws org.tcnfs.nfs4.status.NfsException BAD_STATEID, OLD_STATEID, EXPIRED, OPENMODE, LOCKED ...
     */
    public void checkIo(CompoundContext context, StateId stateId, Inode inode, IoMode mode) throws IOException {
    }

    /** Releases every open, lock and stateid of {@code client} (its lease expired or it was destroyed). */
    public void releaseClient(NfsClient client) {
    }
}
