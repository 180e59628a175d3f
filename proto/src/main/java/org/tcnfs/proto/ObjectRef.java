package org.tcnfs.proto;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An object as a record names it: where it is when the step's operation runs, and, where known, which
 * object it is. Undo checks the identity before it touches the object, so that a path that names something
 * else by then is left alone; the file id comes first, since a handle that the transaction registered never
 * reached the handle table if the transaction did not commit.
 *
 * @param path its path relative to the export root
 * @param handle its NFS file handle, if known
 * @param fileId its local file id (inode number, unsigned), if known
 */
public record ObjectRef(RelativePath path, Optional<ObjectHandle> handle, OptionalLong fileId) {

    public ObjectRef {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(handle, "handle");
        Objects.requireNonNull(fileId, "fileId");
    }

    /** A path whose object is not known (a name the transaction creates). */
    public static ObjectRef at(RelativePath path) {
        return new ObjectRef(path, Optional.empty(), OptionalLong.empty());
    }

    /** An object known by path, handle and file id. */
    public static ObjectRef of(RelativePath path, ObjectHandle handle, long fileId) {
        return new ObjectRef(path, Optional.of(handle), OptionalLong.of(fileId));
    }

    /** This reference with {@code newHandle}. */
    public ObjectRef withHandle(ObjectHandle newHandle) {
        return new ObjectRef(path, Optional.of(newHandle), fileId);
    }

    /** This reference with {@code newFileId}. */
    public ObjectRef withFileId(long newFileId) {
        return new ObjectRef(path, handle, OptionalLong.of(newFileId));
    }

    /** Whether the handle or the file id is known. */
    public boolean hasIdentity() {
        return handle.isPresent() || fileId.isPresent();
    }

    /** Throws unless this names something below the export root. */
    ObjectRef requireBelowRoot(String what) {
        if (path.isRoot()) {
            throw new IllegalArgumentException(what + " cannot be the export root");
        }
        return this;
    }
}
