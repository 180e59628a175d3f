package org.tcnfs.txn.plan;

import java.util.Arrays;
import java.util.Objects;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.txn.lock.LockKey;
import org.tcnfs.txn.lock.LockMode;
import org.tcnfs.txn.lock.LockRequest;

/**
 * A lock key for one object, whatever its names: its file handle (the handle table gives every object one
 * handle, shared by all its hard links). Two compounds that change one file through different names both
 * hold its object key, so they exclude each other. Object keys have no ancestors.
 *
 * @param exportId the export of the object
 * @param handle the object's handle
 * @param mode WRITE for objects the compound changes (plans hold no READ object keys today)
 */
public record ObjectKey(String exportId, Inode handle, LockMode mode) implements Comparable<ObjectKey> {
    public ObjectKey {
        Objects.requireNonNull(exportId, "exportId");
        Objects.requireNonNull(handle, "handle");
        Objects.requireNonNull(mode, "mode");
    }

    /**
     * The file id of the lock manager's object key: a 64-bit digest of the handle bytes (FNV-1a, then the
     * MurmurHash3 finalizer). One object always has one handle, so one file id; two objects share a file id
     * with a probability of about 2^-64, which only makes them exclude each other needlessly.
     */
    public long fileId() {
        long h = 0xcbf29ce484222325L;
        for (byte b : handle.toBytes()) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** This key as the lock manager takes it: {@link LockKey#ofObject} of the export and {@link #fileId}. */
    public LockRequest toLockRequest() {
        return new LockRequest(LockKey.ofObject(exportId, fileId()), mode);
    }

    /** By export id, then handle bytes (unsigned, lexicographic), then READ before WRITE. */
    @Override
    public int compareTo(ObjectKey other) {
        int byExport = exportId.compareTo(other.exportId);
        if (byExport != 0) {
            return byExport;
        }
        int byHandle = Arrays.compareUnsigned(handle.toBytes(), other.handle.toBytes());
        return byHandle != 0 ? byHandle : mode.compareTo(other.mode);
    }

    @Override
    public String toString() {
        return mode + " object " + exportId + "/" + handle;
    }
}
