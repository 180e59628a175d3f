package org.tcnfs.txn.backup;

import java.nio.file.Path;
import java.util.Objects;

/**
 * An object (file, directory, symbolic link ...) renamed from {@code original} into the transaction's
 * backup directory: the victim of a REMOVE, or the existing target of a RENAME. Undo renames it back.
 *
 * @param original where the object was (absolute path)
 * @param backup where it is now, inside the backup directory
 */
public record MovedAside(Path original, Path backup) implements Backup {
    public MovedAside {
        Objects.requireNonNull(original, "original");
        Objects.requireNonNull(backup, "backup");
        if (original.equals(backup)) {
            throw new IllegalArgumentException("original and backup are both " + original);
        }
    }
}
