package org.tcnfs.client.vector;

import java.time.Instant;
import java.util.Objects;

/**
 * The attributes of a file as {@link VnfsClient#vgetattrs} and {@link VnfsClient#vlistdir} return them.
 *
 * @param type regular file, directory, symbolic link or other
 * @param size length in bytes
 * @param mode permission bits (07777)
 * @param links number of hard links
 * @param owner the owner as the server names it (a name or a numeric uid)
 * @param group the group as the server names it
 * @param modifyTime last modification
 * @param fileId the server's file number
 */
public record FileInfo(FileType type, long size, int mode, long links, String owner, String group,
        Instant modifyTime, long fileId) {
    public FileInfo {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(modifyTime, "modifyTime");
    }

    public boolean isDirectory() {
        return type == FileType.DIRECTORY;
    }

    /** The kind of a file. */
    public enum FileType {
        REGULAR, DIRECTORY, SYMLINK, OTHER;

        /** From an {@code nfs_ftype4} value. */
        static FileType of(int nfsType) {
            return switch (nfsType) {
                case 1 -> REGULAR;
                case 2 -> DIRECTORY;
                case 5 -> SYMLINK;
                default -> OTHER;
            };
        }
    }
}
