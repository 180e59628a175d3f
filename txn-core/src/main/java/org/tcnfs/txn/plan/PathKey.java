package org.tcnfs.txn.plan;

import java.util.Objects;
import org.tcnfs.txn.lock.LockKey;
import org.tcnfs.txn.lock.LockMode;
import org.tcnfs.txn.lock.LockRequest;

/**
 * A lock key of a plan: a place in an export and how the compound uses it. The lock manager also
 * read-locks every ancestor of {@link #path}, so a plan lists only the places themselves.
 *
 * @param path the place (it need not exist)
 * @param mode READ or WRITE
 */
public record PathKey(ObjectPath path, LockMode mode) implements Comparable<PathKey> {
    public PathKey {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(mode, "mode");
    }

    /** This key as the lock manager takes it: {@link LockKey#ofPath} of the export and components. */
    public LockRequest toLockRequest() {
        return new LockRequest(LockKey.ofPath(path.exportId(), path.components()), mode);
    }

    /** By path (see {@link ObjectPath#compareTo}), then READ before WRITE. */
    @Override
    public int compareTo(PathKey other) {
        int byPath = path.compareTo(other.path);
        return byPath != 0 ? byPath : mode.compareTo(other.mode);
    }

    @Override
    public String toString() {
        return mode + " " + path;
    }
}
