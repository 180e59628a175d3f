package org.tcnfs.nfs4.ops;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.compound.CompoundContext;
import org.tcnfs.nfs4.state.OpenStateTable;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;

/**
 * An open file outlives its last name: before REMOVE or RENAME takes a name away, the file system is asked
 * to keep the object it names usable by handle if some client holds it open
 * ({@link VirtualFileSystem#keepWhileOpen}); the open state table releases it when the last open ends.
 */
final class OpenUnlinked {
    private static final Logger LOG = LoggerFactory.getLogger(OpenUnlinked.class);

    private OpenUnlinked() {
    }

    /** Before {@code name} in {@code dir} is removed or replaced: keeps what it names if that is open. */
    static boolean keepIfOpen(CompoundContext context, VirtualFileSystem fs, Inode dir, String name)
            throws IOException {
        OpenStateTable opens = context.server().state().opens();
        if (!opens.hasOpenFiles()) {
            return false;
        }
        Inode victim;
        try {
            victim = fs.lookup(dir, name);
        } catch (NfsException e) {
            return false; // nothing there (the operation itself reports it)
        }
        if (opens.isOpen(victim)) {
            LOG.debug("{} in {} is open: kept usable by its handle until its last CLOSE", name, dir);
            fs.keepWhileOpen(victim);
            return true;
        }
        return false;
    }
}
