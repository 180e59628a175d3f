package org.tcnfs.txn.plan;

import java.util.Objects;
import java.util.Optional;

/**
 * An object an operation changes, named twice: where the operation finds it, and where it was before the
 * compound began.
 *
 * <p>The two differ when an earlier operation of the same compound renamed the object or a directory above
 * it, or gave it a new name with LINK. Pre-images and backups are taken before the compound runs, so they
 * use {@link #origin}; undo steps that run after later operations use {@link #path}.
 *
 * @param path the object's path when the operation runs
 * @param origin its path before the compound began; empty if the object cannot have existed then (the
 *     compound itself created the name, or vacated it by REMOVE or RENAME first). Present does not mean the
 *     object exists: the planner never asks whether names exist.
 */
public record ObjectRef(ObjectPath path, Optional<ObjectPath> origin) {
    public ObjectRef {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(origin, "origin");
    }

    /** An object reached by a path that no earlier operation of the compound changed. */
    public static ObjectRef unchanged(ObjectPath path) {
        return new ObjectRef(path, Optional.of(path));
    }

    /** An object the compound itself creates at {@code path}. */
    public static ObjectRef created(ObjectPath path) {
        return new ObjectRef(path, Optional.empty());
    }

    @Override
    public String toString() {
        return origin.isPresent() && origin.get().equals(path) ? path.toString()
                : path + " (before: " + origin.map(ObjectPath::toString).orElse("none") + ")";
    }
}
