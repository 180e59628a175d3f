package org.tcnfs.client.vector.internal;

import java.util.List;
import org.tcnfs.client.CompoundBuilder;
import org.tcnfs.client.vector.RemotePath;

/**
 * Adds operations to a compound and resolves paths inside it: {@link #object} puts the export's root handle
 * (PUTFH) and LOOKUPs each component; {@link #directory} also keeps the directory in the saved file handle
 * (SAVEFH), so the next item in the same directory costs one RESTOREFH. Items that use the saved handle
 * themselves (RENAME, LINK) say so with {@link #savedIs}.
 */
public final class Emitter {
    private final byte[] rootHandle;
    private final CompoundBuilder ops;
    private String savedDirectory;

    public Emitter(byte[] rootHandle, CompoundBuilder ops) {
        this.rootHandle = rootHandle.clone();
        this.ops = ops;
    }

    private Emitter(byte[] rootHandle, CompoundBuilder ops, String savedDirectory) {
        this.rootHandle = rootHandle;
        this.ops = ops;
        this.savedDirectory = savedDirectory;
    }

    /** An emitter with this one's saved-handle knowledge, writing into {@code other}. */
    public Emitter fork(CompoundBuilder other) {
        return new Emitter(rootHandle, other, savedDirectory);
    }

    /** The compound being built. */
    public CompoundBuilder ops() {
        return ops;
    }

    /** Makes the object at {@code path} the current file handle: PUTFH of the root, one LOOKUP per component. */
    public Emitter object(String path) {
        ops.putfh(rootHandle);
        List<String> parts = RemotePath.components(path);
        for (String part : parts) {
            ops.lookup(part);
        }
        return this;
    }

    /** Makes the directory {@code dir} current, by RESTOREFH when it is the saved one, else by path and SAVEFH. */
    public Emitter directory(String dir) {
        String d = RemotePath.normalize(dir);
        if (d.equals(savedDirectory)) {
            ops.restorefh();
            return this;
        }
        object(d);
        if (!d.isEmpty()) {
            ops.savefh();
            savedDirectory = d;
        }
        return this;
    }

    /** Records what the saved file handle holds now: a directory's path, or {@code null} for "unknown". */
    public Emitter savedIs(String dirOrNull) {
        savedDirectory = dirOrNull == null ? null : RemotePath.normalize(dirOrNull);
        return this;
    }

    /** Forgets the saved directory when it is {@code path} or beneath it (removed or renamed away). */
    public Emitter invalidate(String path) {
        if (savedDirectory != null && RemotePath.isWithin(savedDirectory, path)) {
            savedDirectory = null;
        }
        return this;
    }
}
