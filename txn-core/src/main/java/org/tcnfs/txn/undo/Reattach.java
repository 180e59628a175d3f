package org.tcnfs.txn.undo;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Points a handle the handle table already holds at the object now at a local path. Undo re-creates a
 * removed directory as a new inode; the file system behind the export knows how it identifies objects and
 * moves the old handle over, so clients that held it keep using it.
 */
@FunctionalInterface
public interface Reattach {

    /**
     * @param handle the handle (16 bytes)
     * @param local the object's local path, below the export root
     * @throws IOException if the object cannot be examined or the table cannot be changed
     */
    void reattach(byte[] handle, Path local) throws IOException;

    /** A reattach that does nothing (for file systems whose identities survive re-creation). */
    Reattach NONE = (handle, local) -> { };
}
