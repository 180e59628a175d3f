package org.tcnfs.server.fs;

import java.time.Instant;
import org.tcnfs.nfs4.status.IoException;
import org.tcnfs.nfs4.vfs.FileType;

/**
 * The fields of one {@code lstat} that the file system uses, copied out of native memory.
 *
 * @param dev {@code st_dev}
 * @param ino {@code st_ino}
 * @param mode {@code st_mode} including the type bits
 * @param nlink {@code st_nlink}
 * @param uid {@code st_uid}
 * @param gid {@code st_gid}
 * @param rdev {@code st_rdev}
 * @param size {@code st_size}
 * @param blocks {@code st_blocks} (512-byte units)
 * @param atimeSec {@code st_atim.tv_sec}
 * @param atimeNsec {@code st_atim.tv_nsec}
 * @param mtimeSec {@code st_mtim.tv_sec}
 * @param mtimeNsec {@code st_mtim.tv_nsec}
 * @param ctimeSec {@code st_ctim.tv_sec}
 * @param ctimeNsec {@code st_ctim.tv_nsec}
 * @param btimeSec birth time ({@code stx_btime.tv_sec}), 0 with {@code btimeNsec} 0 where unknown
 * @param btimeNsec birth time ({@code stx_btime.tv_nsec})
 */
record PosixStat(long dev, long ino, int mode, int nlink, int uid, int gid, long rdev, long size, long blocks,
        long atimeSec, long atimeNsec, long mtimeSec, long mtimeNsec, long ctimeSec, long ctimeNsec,
        long btimeSec, long btimeNsec) {

    static final int S_IFMT = 0170000;
    static final int S_IFSOCK = 0140000;
    static final int S_IFLNK = 0120000;
    static final int S_IFREG = 0100000;
    static final int S_IFBLK = 0060000;
    static final int S_IFDIR = 0040000;
    static final int S_IFCHR = 0020000;
    static final int S_IFIFO = 0010000;
    static final int S_ISGID = 02000;

    /** The kind of object, or {@code null} for an unknown type. */
    FileType typeOrNull() {
        return switch (mode & S_IFMT) {
            case S_IFREG -> FileType.REGULAR;
            case S_IFDIR -> FileType.DIRECTORY;
            case S_IFLNK -> FileType.SYMLINK;
            case S_IFBLK -> FileType.BLOCK;
            case S_IFCHR -> FileType.CHAR;
            case S_IFSOCK -> FileType.SOCKET;
            case S_IFIFO -> FileType.FIFO;
            default -> null;
        };
    }

    /** The kind of object. */
    FileType type() throws IoException {
        FileType type = typeOrNull();
        if (type == null) {
            throw new IoException("unknown file type in mode " + Integer.toOctalString(mode));
        }
        return type;
    }

    boolean isDirectory() {
        return (mode & S_IFMT) == S_IFDIR;
    }

    /** Permission bits including set-uid, set-gid and sticky. */
    int permissions() {
        return mode & 07777;
    }

    /** {@code st_ctim} in nanoseconds since the epoch. */
    long ctimeNanos() {
        return ctimeSec * 1_000_000_000L + ctimeNsec;
    }

    /** Whether the birth time is known. */
    boolean hasBtime() {
        return btimeSec != 0 || btimeNsec != 0;
    }

    /** The birth time in nanoseconds since the epoch, or 0 where unknown: the handle table's generation. */
    long generation() {
        return hasBtime() ? btimeSec * 1_000_000_000L + btimeNsec : 0;
    }

    /** The birth time, or {@code null} where unknown. */
    Instant btime() {
        return hasBtime() ? Instant.ofEpochSecond(btimeSec, btimeNsec) : null;
    }

    Instant atime() {
        return Instant.ofEpochSecond(atimeSec, atimeNsec);
    }

    Instant mtime() {
        return Instant.ofEpochSecond(mtimeSec, mtimeNsec);
    }

    Instant ctime() {
        return Instant.ofEpochSecond(ctimeSec, ctimeNsec);
    }

    /** The major number of {@code rdev} (glibc's encoding). */
    int rdevMajor() {
        return (int) (((rdev >>> 8) & 0xfffL) | ((rdev >>> 32) & 0xfffff000L));
    }

    /** The minor number of {@code rdev} (glibc's encoding). */
    int rdevMinor() {
        return (int) ((rdev & 0xffL) | ((rdev >>> 12) & 0xffffff00L));
    }

    /** A {@code dev_t} from major and minor numbers (glibc's {@code makedev}). */
    static long makedev(int major, int minor) {
        long ma = Integer.toUnsignedLong(major);
        long mi = Integer.toUnsignedLong(minor);
        return ((ma & 0xfffL) << 8) | ((ma & 0xfffff000L) << 32) | (mi & 0xffL) | ((mi & 0xffffff00L) << 12);
    }
}
