package org.tcnfs.client.vector;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Writes {@code data} at {@code offset} of the file at {@code path}.
 *
 * @param path the file, relative to the export
 * @param offset where the data goes (ignored with {@link WriteFlag#APPEND})
 * @param data the bytes (copied)
 * @param flags create, exclusive, truncate, append
 * @param mode the permission bits of a file the write creates
 */
public record VWrite(String path, long offset, byte[] data, Set<WriteFlag> flags, int mode) implements TxnItem {
    /** Permission bits of created files unless given. */
    public static final int DEFAULT_MODE = 0644;

    public VWrite {
        path = RemotePath.normalize(path);
        if (path.isEmpty()) {
            throw new IllegalArgumentException("cannot write the export's root");
        }
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        data = Objects.requireNonNull(data, "data").clone();
        flags = flags.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(flags));
        if ((mode & ~07777) != 0) {
            throw new IllegalArgumentException("mode " + Integer.toOctalString(mode));
        }
    }

    /** Creates or truncates {@code path}, then writes {@code data} (as {@code cat > path} would). */
    public static VWrite create(String path, byte[] data) {
        return new VWrite(path, 0, data, EnumSet.of(WriteFlag.CREATE, WriteFlag.TRUNCATE), DEFAULT_MODE);
    }

    /** Writes {@code data} at {@code offset} of the existing file {@code path}. */
    public static VWrite at(String path, long offset, byte[] data) {
        return new VWrite(path, offset, data, Set.of(), DEFAULT_MODE);
    }

    /** Appends {@code data} to {@code path}, creating it when missing. */
    public static VWrite append(String path, byte[] data) {
        return new VWrite(path, 0, data, EnumSet.of(WriteFlag.CREATE, WriteFlag.APPEND), DEFAULT_MODE);
    }

    /** The same write with other permission bits for a created file. */
    public VWrite withMode(int newMode) {
        return new VWrite(path, offset, data, flags, newMode);
    }

    /** The same write with other flags. */
    public VWrite withFlags(Set<WriteFlag> newFlags) {
        return new VWrite(path, offset, data, newFlags, mode);
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    /** The data without a copy, for the client's encoders. */
    byte[] dataUnsafe() {
        return data;
    }

    boolean has(WriteFlag flag) {
        return flags.contains(flag) || flag == WriteFlag.CREATE && flags.contains(WriteFlag.EXCLUSIVE);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VWrite w && w.path.equals(path) && w.offset == offset
                && java.util.Arrays.equals(w.data, data) && w.flags.equals(flags) && w.mode == mode;
    }

    @Override
    public int hashCode() {
        return Objects.hash(path, offset, java.util.Arrays.hashCode(data), flags, mode);
    }

    @Override
    public String toString() {
        return "VWrite[" + path + " @" + offset + ", " + data.length + " bytes, " + flags + ", mode "
                + Integer.toOctalString(mode) + "]";
    }
}
