package org.tcnfs.client.vector;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Sets attributes of {@code path}; only the present values change.
 *
 * @param path relative to the export
 * @param mode permission bits
 * @param size the new length (truncates or extends a file)
 * @param owner a user name or numeric uid as a string
 * @param group a group name or numeric gid as a string
 * @param modifyTime the new modification time
 */
public record VSetattr(String path, OptionalInt mode, OptionalLong size, Optional<String> owner,
        Optional<String> group, Optional<Instant> modifyTime) implements TxnItem {
    public VSetattr {
        path = RemotePath.normalize(path);
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(size, "size");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(modifyTime, "modifyTime");
        if (mode.isPresent() && (mode.getAsInt() & ~07777) != 0) {
            throw new IllegalArgumentException("mode " + Integer.toOctalString(mode.getAsInt()));
        }
        if (size.isPresent() && size.getAsLong() < 0) {
            throw new IllegalArgumentException("negative size");
        }
        if (mode.isEmpty() && size.isEmpty() && owner.isEmpty() && group.isEmpty() && modifyTime.isEmpty()) {
            throw new IllegalArgumentException("nothing to set on " + path);
        }
    }

    /** Sets the permission bits. */
    public static VSetattr mode(String path, int mode) {
        return new VSetattr(path, OptionalInt.of(mode), OptionalLong.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    /** Sets the length. */
    public static VSetattr size(String path, long size) {
        return new VSetattr(path, OptionalInt.empty(), OptionalLong.of(size), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    /** Sets the modification time. */
    public static VSetattr modifyTime(String path, Instant time) {
        return new VSetattr(path, OptionalInt.empty(), OptionalLong.empty(), Optional.empty(), Optional.empty(),
                Optional.of(time));
    }

    /** Sets owner and group. */
    public static VSetattr owner(String path, String owner, String group) {
        return new VSetattr(path, OptionalInt.empty(), OptionalLong.empty(), Optional.of(owner), Optional.of(group),
                Optional.empty());
    }
}
