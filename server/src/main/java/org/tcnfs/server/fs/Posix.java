package org.tcnfs.server.fs;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import jnr.constants.platform.Errno;
import jnr.ffi.LastError;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Platform;
import jnr.ffi.annotations.Encoding;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.Out;
import jnr.ffi.annotations.Variadic;
import jnr.posix.FileStat;
import jnr.posix.NanosecondFileStat;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;
import jnr.posix.POSIXHandler;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.vfs.TimeChange;

/**
 * The system calls the local file system makes through JNR (jnr-posix, plus {@code mknod} and
 * {@code statvfs} bound with jnr-ffi), each turning a failure into the {@link NfsException} that
 * {@link FsErrors} maps its errno to. Paths are passed as they are: callers resolve and check them; nothing
 * here follows a symbolic link at the last component except {@link #chmod} and {@link #truncate}, which
 * callers use on verified regular files and directories only.
 *
 * <p>Thread-safe (errno is per thread).
 */
final class Posix {
    private static final int AT_FDCWD = -100;
    private static final int AT_SYMLINK_NOFOLLOW = 0x100;
    private static final int O_RDONLY = 0;
    private static final int O_NOFOLLOW = 0400000;
    private static final int O_CLOEXEC = 02000000;
    private static final int O_DIRECTORY = 0200000;
    /** Bytes of one read of directory entries ({@link #isEmptyDirectory}): more than one entry of the longest name. */
    private static final int DIRENT_BUFFER = 1024;
    private static final long UTIME_NOW = (1L << 30) - 1;
    private static final long UTIME_OMIT = (1L << 30) - 2;
    private static final int STATVFS_SIZE = 112;
    private static final int STATX_SIZE = 256;
    /** STATX_BASIC_STATS | STATX_BTIME. */
    private static final int STATX_MASK = 0x07ff | 0x0800;
    private static final int STATX_BTIME = 0x0800;
    /** openat2's number on x86_64 and aarch64 (new system calls share one table). */
    private static final long SYS_OPENAT2 = 437;
    /** {@code struct open_how} of openat2: flags, mode, resolve; 8 bytes each. */
    private static final int OPEN_HOW_SIZE = 24;
    private static final long O_PATH_DIRECTORY_CLOEXEC = 010000000 | 0200000 | 02000000;
    private static final long RESOLVE_NO_SYMLINKS = 0x04;
    private static final long RESOLVE_BENEATH = 0x08;
    private static final byte[] OPEN_DIRECTORY_NO_SYMLINKS = openHow(RESOLVE_NO_SYMLINKS);
    private static final byte[] OPEN_DIRECTORY_BENEATH = openHow(RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH);
    private static final int AT_EMPTY_PATH = 0x1000;
    private static final int AT_REMOVEDIR = 0x200;
    private static final byte[] EMPTY_PATH = {0};
    /** What {@link #openDirectoryBeneath} answers where openat2 or statx cannot be used: walk absolute paths. */
    static final int UNSUPPORTED = -2;

    /** libc calls jnr-posix lacks. */
    public interface Extra {
        int mknod(@Encoding("UTF-8") CharSequence path, int mode, long dev);

        int statvfs(@Encoding("UTF-8") CharSequence path, @Out byte[] buf);

        /** {@code path} is NUL-terminated UTF-8 ({@link #cPath}): cheaper than a CharSequence's encoder. */
        int statx(int dirfd, @In byte[] path, int flags, int mask, @Out byte[] buf);

        /** {@code path} is NUL-terminated UTF-8 ({@link #cPath}). */
        int unlinkat(int dirfd, @In byte[] path, int flags);

        /** {@code syscall(SYS_openat2, dirfd, path, &how, sizeof how)}: glibc has no wrapper for openat2. */
        @Variadic(fixedCount = 1)
        long syscall(long number, int dirfd, @In byte[] path, @In byte[] how, long size);

        int close(int fd);

        int syncfs(int fd);

        int fchmod(int fd, int mode);

        int fchown(int fd, int uid, int gid);

        int linkat(int olddirfd, @Encoding("UTF-8") CharSequence oldpath, int newdirfd,
                @Encoding("UTF-8") CharSequence newpath, int flags);

        /**
         * {@code times} is {@code struct timespec[2]} as four longs (64-bit Linux only): jnr-posix's own
         * {@code futimens} converts a struct array, which costs two exceptions with stack traces per call.
         */
        int futimens(int fd, @In long[] times);

        /** {@code times} as in {@link #futimens}. */
        int utimensat(int dirfd, @Encoding("UTF-8") CharSequence path, @In long[] times, int flags);

        /** {@code getdents64(2)} (glibc 2.30 and later): directory entries of {@code fd} into {@code buf}. */
        long getdents64(int fd, @Out byte[] buf, long count);
    }

    /** {@code O_TMPFILE | O_RDWR | O_CLOEXEC} (Linux; O_TMPFILE includes O_DIRECTORY). */
    private static final int O_TMPFILE_RDWR_CLOEXEC = 020200000 | 2 | O_CLOEXEC;
    private static final int AT_SYMLINK_FOLLOW = 0x400;

    private final POSIX posix;
    private final Extra extra;
    private final jnr.ffi.Runtime extraRuntime;
    private final boolean lp64Linux;
    private volatile boolean statx;
    private volatile boolean openat2;
    private volatile boolean getdents64 = true;

    Posix() {
        this.posix = POSIXFactory.getNativePOSIX(new QuietHandler());
        if (!posix.isNative()) {
            throw new IllegalStateException("native POSIX calls are not available");
        }
        this.extra = LibraryLoader.create(Extra.class).load("c");
        this.extraRuntime = jnr.ffi.Runtime.getRuntime(extra);
        Platform platform = Platform.getNativePlatform();
        this.lp64Linux = platform.getOS() == Platform.OS.LINUX && platform.is64Bit();
        this.statx = platform.getOS() == Platform.OS.LINUX;
        this.openat2 = platform.getOS() == Platform.OS.LINUX
                && (platform.getCPU() == Platform.CPU.X86_64 || platform.getCPU() == Platform.CPU.AARCH64);
    }

    /**
     * Whether {@code directory} (absolute) is a directory reached without following a symbolic link on any
     * component. One {@code openat2(O_PATH, RESOLVE_NO_SYMLINKS)} where the kernel has it (5.6 and later),
     * else a {@code realpath(3)} walk, which costs a system call per component and per level.
     */
    boolean isDirectoryWithoutSymlinks(Path directory) {
        if (openat2) {
            long fd;
            try {
                fd = extra.syscall(SYS_OPENAT2, AT_FDCWD, cPath(directory.toString()), OPEN_DIRECTORY_NO_SYMLINKS,
                        OPEN_HOW_SIZE);
            } catch (UnsatisfiedLinkError e) {
                openat2 = false;
                return isDirectoryWithoutSymlinks(directory);
            }
            if (fd >= 0) {
                extra.close((int) fd);
                return true;
            }
            int errno = LastError.getLastError(extraRuntime);
            if (errno == Errno.ENOSYS.intValue() || errno == Errno.EPERM.intValue() || errno == Errno.E2BIG.intValue()
                    || errno == Errno.EINVAL.intValue()) {
                // an older kernel, or a seccomp filter that forbids the call: walk instead, from now on
                openat2 = false;
                return isDirectoryWithoutSymlinks(directory);
            }
            return false;
        }
        return walkedWithoutSymlinks(directory);
    }

    /** Makes this instance work as on a kernel without openat2 (tests of that path); returns it. */
    Posix withoutOpenat2() {
        openat2 = false;
        return this;
    }

    /** Whether {@link #isDirectoryWithoutSymlinks} still uses openat2 (it stops at the first sign it cannot). */
    boolean usesOpenat2() {
        return openat2;
    }

    /**
     * Whether {@link #openDirectoryBeneath} and {@link #statAt} can be used: openat2 and statx both still work (each
     * stops at the first sign it cannot).
     */
    boolean usesDescriptors() {
        return openat2 && statx;
    }

    /** {@code struct open_how} of an {@code O_PATH | O_DIRECTORY | O_CLOEXEC} open with {@code resolve}. */
    private static byte[] openHow(long resolve) {
        return ByteBuffer.allocate(OPEN_HOW_SIZE).order(ByteOrder.nativeOrder()).putLong(O_PATH_DIRECTORY_CLOEXEC)
                .putLong(0).putLong(resolve).array();
    }

    /**
     * An {@code O_PATH} descriptor of the directory {@code relative} (names joined by '/', no "." or "..") below the
     * directory {@code dirfd}, reached without a symbolic link on any component and without leaving {@code dirfd}
     * ({@code openat2(RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH)}): the kernel walks only these names. -1 if there is no
     * such directory (missing, not a directory, a link on the way), {@link #UNSUPPORTED} where openat2 or statx
     * cannot be used (then never again: callers walk absolute paths as before). {@link #close(int)} it.
     */
    int openDirectoryBeneath(int dirfd, String relative) throws NfsException {
        if (!usesDescriptors()) {
            return UNSUPPORTED;
        }
        long fd;
        try {
            fd = extra.syscall(SYS_OPENAT2, dirfd, cPath(relative), OPEN_DIRECTORY_BENEATH, OPEN_HOW_SIZE);
        } catch (UnsatisfiedLinkError e) {
            openat2 = false;
            return UNSUPPORTED;
        }
        if (fd >= 0) {
            return (int) fd;
        }
        int errno = LastError.getLastError(extraRuntime);
        if (errno == Errno.ENOENT.intValue() || errno == Errno.ENOTDIR.intValue() || errno == Errno.ELOOP.intValue()
                || errno == Errno.EXDEV.intValue()) {
            return -1;
        }
        if (errno == Errno.ENOSYS.intValue() || errno == Errno.EPERM.intValue() || errno == Errno.E2BIG.intValue()
                || errno == Errno.EINVAL.intValue()) {
            openat2 = false;
            return UNSUPPORTED;
        }
        throw FsErrors.of(errno, "openat2", Path.of(relative));
    }

    /**
     * {@code statx} of {@code relative} (names joined by '/') below the directory {@code dirfd}, not following a
     * symbolic link at its last name (the kernel looks up only these names: the caller vouches for the directories on
     * the way), or of {@code dirfd}'s own object when {@code relative} is null; {@code null} if nothing is there. Only
     * while {@link #usesDescriptors()}; of {@code dirfd}'s own object, wherever {@code statx} works.
     */
    PosixStat statAt(int dirfd, String relative, Path what) throws NfsException {
        byte[] buffer = new byte[STATX_SIZE];
        int result = relative == null
                ? extra.statx(dirfd, EMPTY_PATH, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MASK, buffer)
                : extra.statx(dirfd, cPath(relative), AT_SYMLINK_NOFOLLOW, STATX_MASK, buffer);
        if (result == 0) {
            return fromStatx(buffer);
        }
        int errno = LastError.getLastError(extraRuntime);
        if (errno == Errno.ENOENT.intValue() || errno == Errno.ENOTDIR.intValue()) {
            return null;
        }
        throw FsErrors.of(errno, "statx", what);
    }

    /**
     * {@code unlinkat} of {@code relative} (names joined by '/') below the directory {@code dirfd}, as {@code rmdir}
     * when {@code directory}, failing with the mapped errno ({@code what} names the object in the error): the kernel
     * looks up only these names, and follows no symbolic link at the last one; the caller vouches for the directories
     * on the way, as for {@link #statAt}. Only while {@link #usesDescriptors()}.
     */
    void unlinkAt(int dirfd, String relative, boolean directory, Path what) throws NfsException {
        checkExtra(extra.unlinkat(dirfd, cPath(relative), directory ? AT_REMOVEDIR : 0), directory ? "rmdir" : "unlink",
                what);
    }

    /** {@link #isDirectoryWithoutSymlinks} by {@code realpath(3)}: where openat2 is missing. */
    static boolean walkedWithoutSymlinks(Path directory) {
        try {
            return directory.toRealPath().equals(directory)
                    && Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether the process runs with effective uid 0. */
    boolean isRoot() {
        return posix.geteuid() == 0;
    }

    /** {@code lstat}, failing with the mapped errno. */
    PosixStat lstat(Path path) throws NfsException {
        PosixStat stat = lstatOrNull(path);
        if (stat == null) {
            throw FsErrors.of(Errno.ENOENT.intValue(), "lstat", path);
        }
        return stat;
    }

    /**
     * {@code lstat}, or {@code null} if nothing is there (ENOENT, or ENOTDIR on the way). Uses
     * {@code statx} where the kernel has it (for the birth time), else {@code lstat}.
     */
    PosixStat lstatOrNull(Path path) throws NfsException {
        return statOrNull(path, false);
    }

    /** {@code stat}: as {@link #lstatOrNull}, following a final symbolic link (or a /proc magic link). */
    PosixStat statOrNull(Path path) throws NfsException {
        return statOrNull(path, true);
    }

    private PosixStat statOrNull(Path path, boolean follow) throws NfsException {
        if (statx) {
            byte[] buffer = new byte[STATX_SIZE];
            int result;
            try {
                result = extra.statx(AT_FDCWD, cPath(path.toString()), follow ? 0 : AT_SYMLINK_NOFOLLOW, STATX_MASK,
                        buffer);
            } catch (UnsatisfiedLinkError e) {
                statx = false;
                return statOrNull(path, follow);
            }
            if (result == 0) {
                return fromStatx(buffer);
            }
            int errno = LastError.getLastError(extraRuntime);
            if (errno == Errno.ENOSYS.intValue() || errno == Errno.EPERM.intValue() && statxForbidden()) {
                statx = false;
                return statOrNull(path, follow);
            }
            if (errno == Errno.ENOENT.intValue() || errno == Errno.ENOTDIR.intValue()) {
                return null;
            }
            throw FsErrors.of(errno, "statx", path);
        }
        FileStat st = posix.allocateStat();
        if ((follow ? posix.stat(path.toString(), st) : posix.lstat(path.toString(), st)) < 0) {
            int errno = posix.errno();
            if (errno == Errno.ENOENT.intValue() || errno == Errno.ENOTDIR.intValue()) {
                return null;
            }
            throw FsErrors.of(errno, "lstat", path);
        }
        long atimeNsec = 0;
        long mtimeNsec = 0;
        long ctimeNsec = 0;
        if (st instanceof NanosecondFileStat ns) {
            atimeNsec = ns.aTimeNanoSecs();
            mtimeNsec = ns.mTimeNanoSecs();
            ctimeNsec = ns.cTimeNanoSecs();
        }
        return new PosixStat(st.dev(), st.ino(), st.mode(), st.nlink(), st.uid(), st.gid(), st.rdev(),
                st.st_size(), st.blocks(), st.atime(), atimeNsec, st.mtime(), mtimeNsec, st.ctime(), ctimeNsec,
                0, 0);
    }

    /**
     * {@code path} as a C string: UTF-8 and a terminating NUL (a path holds no NUL: names are checked).
     * Passing these bytes costs a copy, where a CharSequence parameter costs a charset encoder and a
     * native buffer per call.
     */
    static byte[] cPath(String path) {
        byte[] utf8 = path.getBytes(StandardCharsets.UTF_8);
        return Arrays.copyOf(utf8, utf8.length + 1);
    }

    /** Decodes a {@code struct statx} (the same layout on every architecture). */
    private static PosixStat fromStatx(byte[] buffer) {
        ByteBuffer in = ByteBuffer.wrap(buffer).order(ByteOrder.nativeOrder());
        int mask = in.getInt(0x00);
        long btimeSec = 0;
        long btimeNsec = 0;
        if ((mask & STATX_BTIME) != 0) {
            btimeSec = in.getLong(0x50);
            btimeNsec = Integer.toUnsignedLong(in.getInt(0x58));
        }
        return new PosixStat(
                PosixStat.makedev(in.getInt(0x88), in.getInt(0x8c)),
                in.getLong(0x20),
                Short.toUnsignedInt(in.getShort(0x1c)),
                in.getInt(0x10),
                in.getInt(0x14),
                in.getInt(0x18),
                PosixStat.makedev(in.getInt(0x80), in.getInt(0x84)),
                in.getLong(0x28),
                in.getLong(0x30),
                in.getLong(0x40), Integer.toUnsignedLong(in.getInt(0x48)),
                in.getLong(0x70), Integer.toUnsignedLong(in.getInt(0x78)),
                in.getLong(0x60), Integer.toUnsignedLong(in.getInt(0x68)),
                btimeSec, btimeNsec);
    }

    /** Whether statx fails with EPERM for a path that lstat can read (a seccomp filter that forbids it). */
    private boolean statxForbidden() {
        byte[] buffer = new byte[STATX_SIZE];
        return extra.statx(AT_FDCWD, cPath("/"), AT_SYMLINK_NOFOLLOW, STATX_MASK, buffer) < 0
                && LastError.getLastError(extraRuntime) == Errno.EPERM.intValue();
    }

    /**
     * A read-only descriptor of the regular file at {@code path} (not following a symbolic link), which
     * keeps the file alive after its last name is gone; {@link #close(int)} it.
     */
    int openToKeep(Path path) throws NfsException {
        int fd = posix.open(path.toString(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
        if (fd < 0) {
            throw FsErrors.of(posix.errno(), "open", path);
        }
        return fd;
    }

    /**
     * A read-only descriptor of the directory {@code path} (the export root, for {@link #syncfs}; a directory whose
     * entries changed, for {@link #fsync}); close it.
     */
    int openDirectory(Path path) throws NfsException {
        int fd = posix.open(path.toString(), O_RDONLY | O_CLOEXEC | 0200000, 0);
        if (fd < 0) {
            throw FsErrors.of(posix.errno(), "open", path);
        }
        return fd;
    }

    /** {@code syncfs(2)}: writes back and commits everything of the file system that holds {@code fd}. */
    void syncfs(int fd, Path what) throws NfsException {
        if (extra.syncfs(fd) < 0) {
            throw FsErrors.of(LastError.getLastError(extraRuntime), "syncfs", what);
        }
    }

    /** {@code fsync(2)} of the descriptor {@code fd} of {@code what}. */
    void fsync(int fd, Path what) throws NfsException {
        if (posix.fsync(fd) < 0) {
            throw FsErrors.of(posix.errno(), "fsync", what);
        }
    }

    /** Closes a descriptor of {@link #openToKeep} or {@link #openDirectory}. */
    void close(int fd) {
        posix.close(fd);
    }

    /**
     * Whether the directory {@code dir} (not following a symbolic link) holds no entry but "." and "..": its descriptor,
     * {@code getdents64(2)} until a named entry or the end, and its close, four system calls for an empty directory
     * where a {@link DirectoryStream} makes nine (it also duplicates the descriptor, stats it, sets its
     * flags and closes both). A {@code DirectoryStream} where libc has no {@code getdents64}.
     */
    boolean isEmptyDirectory(Path dir) throws NfsException {
        if (!getdents64) {
            return isEmptyByStream(dir);
        }
        int fd = posix.open(dir.toString(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_DIRECTORY, 0);
        if (fd < 0) {
            throw FsErrors.of(posix.errno(), "open", dir);
        }
        try {
            byte[] entries = new byte[DIRENT_BUFFER];
            ByteBuffer view = ByteBuffer.wrap(entries).order(ByteOrder.nativeOrder());
            while (true) {
                long n = extra.getdents64(fd, entries, entries.length);
                if (n < 0) {
                    throw FsErrors.of(LastError.getLastError(extraRuntime), "getdents64", dir);
                }
                if (n == 0) {
                    return true;
                }
                // struct linux_dirent64: d_ino (8 bytes), d_off (8), d_reclen (2), d_type (1), d_name (NUL-terminated)
                for (int at = 0; at < n; at += view.getShort(at + 16) & 0xffff) {
                    if (!isDotOrDotDot(entries, at + 19)) {
                        return false;
                    }
                }
            }
        } catch (UnsatisfiedLinkError e) {
            getdents64 = false;
            return isEmptyByStream(dir);
        } finally {
            posix.close(fd);
        }
    }

    /** Whether the NUL-terminated name at {@code at} of {@code entries} is "." or "..". */
    private static boolean isDotOrDotDot(byte[] entries, int at) {
        return entries[at] == '.' && (entries[at + 1] == 0 || entries[at + 1] == '.' && entries[at + 2] == 0);
    }

    private static boolean isEmptyByStream(Path dir) throws NfsException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            return !entries.iterator().hasNext();
        } catch (IOException e) {
            throw FsErrors.of(e, "listing " + dir);
        }
    }

    void mkdir(Path path, int mode) throws NfsException {
        check(posix.mkdir(path.toString(), mode), "mkdir", path);
    }

    void rmdir(Path path) throws NfsException {
        check(posix.rmdir(path.toString()), "rmdir", path);
    }

    void unlink(Path path) throws NfsException {
        check(posix.unlink(path.toString()), "unlink", path);
    }

    /** {@code rename(2)}; returns 0 or the errno, for the caller to map with {@link FsErrors#ofRename}. */
    int rename(Path from, Path to) {
        return posix.rename(from.toString(), to.toString()) < 0 ? posix.errno() : 0;
    }

    void link(Path existing, Path newPath) throws NfsException {
        check(posix.link(existing.toString(), newPath.toString()), "link", newPath);
    }

    /** Creates a symbolic link at {@code path} holding {@code target} verbatim. */
    void symlink(String target, Path path) throws NfsException {
        check(posix.symlink(target, path.toString()), "symlink", path);
    }

    /** The target of the symbolic link at {@code path}, as raw bytes. */
    byte[] readlink(Path path) throws NfsException {
        byte[] buffer = new byte[4096];
        int length = posix.readlink(path.toString(), buffer, buffer.length);
        if (length < 0) {
            throw FsErrors.of(posix.errno(), "readlink", path);
        }
        byte[] target = new byte[length];
        System.arraycopy(buffer, 0, target, 0, length);
        return target;
    }

    void mknod(Path path, int mode, long dev) throws NfsException {
        if (extra.mknod(path.toString(), mode, dev) < 0) {
            throw FsErrors.of(LastError.getLastError(extraRuntime), "mknod", path);
        }
    }

    void mkfifo(Path path, int mode) throws NfsException {
        check(posix.mkfifo(path.toString(), mode), "mkfifo", path);
    }

    /**
     * Creates a regular file at {@code path} that appears under its name with its final owner and mode at once: an
     * unnamed file in the directory ({@code O_TMPFILE}), {@code fchown} (if {@code uid >= 0}), {@code fchmod},
     * then {@code linkat} to the name (failing with EEXIST if the name is taken). A crash at any point leaves
     * either no file or the finished one. Returns what {@code statx} says of the file made, read from its own
     * descriptor after the link (so it is that file, whatever holds the name by then; should that read fail, the name
     * is removed again and the failure thrown), or null, having changed nothing, where the file system has no
     * {@code O_TMPFILE} (FUSE, NFS, older kernels).
     */
    PosixStat createLinked(Path path, int mode, int uid, int gid) throws NfsException {
        return createLinked(path, mode, uid, gid, null, null);
    }

    /**
     * {@link #createLinked(Path, int, int, int)} that also sets the access and modification times ({@code futimens})
     * before the file gets its name; a null time is the time of creation.
     */
    PosixStat createLinked(Path path, int mode, int uid, int gid, TimeChange atime, TimeChange mtime)
            throws NfsException {
        Path dir = path.getParent();
        int fd = posix.open(dir.toString(), O_TMPFILE_RDWR_CLOEXEC, 0600);
        if (fd < 0) {
            int errno = posix.errno();
            if (errno == Errno.EOPNOTSUPP.intValue() || errno == Errno.EISDIR.intValue()
                    || errno == Errno.EINVAL.intValue() || errno == Errno.ENOTSUP.intValue()) {
                return null;
            }
            throw FsErrors.of(errno, "open(O_TMPFILE)", dir);
        }
        try {
            if (uid >= 0 && extra.fchown(fd, uid, gid) < 0) {
                throw FsErrors.of(LastError.getLastError(extraRuntime), "fchown", path);
            }
            if (extra.fchmod(fd, mode) < 0) {
                throw FsErrors.of(LastError.getLastError(extraRuntime), "fchmod", path);
            }
            if (atime != null || mtime != null) {
                setTimes(fd, path, atime, mtime);
            }
            if (extra.linkat(AT_FDCWD, "/proc/self/fd/" + fd, AT_FDCWD, path.toString(), AT_SYMLINK_FOLLOW) < 0) {
                throw FsErrors.of(LastError.getLastError(extraRuntime), "linkat", path);
            }
            try {
                return statOfOpen(fd, path);
            } catch (NfsException e) {
                // a create that fails leaves no file: the name goes again (the caller registers nothing)
                posix.unlink(path.toString());
                throw e;
            }
        } finally {
            extra.close(fd);
        }
    }

    /**
     * What {@code statx} says of the open file {@code fd} ({@link #statAt}), which is at {@code path}; where the kernel
     * has no {@code statx} (or forbids it), {@code lstat} of {@code path}.
     */
    private PosixStat statOfOpen(int fd, Path path) throws NfsException {
        PosixStat stat = statx ? statAt(fd, null, path) : null;
        return stat != null ? stat : lstat(path);
    }

    /**
     * Whether {@link #createLinked} works in {@code directory}: opens an unnamed file there and closes it
     * (nothing becomes visible, nothing stays).
     */
    boolean unnamedFilesWork(Path directory) {
        int fd = posix.open(directory.toString(), O_TMPFILE_RDWR_CLOEXEC, 0600);
        if (fd < 0) {
            return false;
        }
        extra.close(fd);
        return java.nio.file.Files.isDirectory(Path.of("/proc/self/fd"));
    }

    /** {@code chmod(2)}: follows a symbolic link, so never call it on one. */
    void chmod(Path path, int mode) throws NfsException {
        check(posix.chmod(path.toString(), mode), "chmod", path);
    }

    /** {@code lchown(2)}; -1 leaves an id unchanged. */
    void lchown(Path path, int uid, int gid) throws NfsException {
        check(posix.lchown(path.toString(), uid, gid), "lchown", path);
    }

    /** {@code truncate(2)}: follows a symbolic link, so call it on verified regular files only. */
    void truncate(Path path, long size) throws NfsException {
        check(posix.truncate(path.toString(), size), "truncate", path);
    }

    /** Sets access and modification times of {@code path} itself (never a link's target), in nanoseconds. */
    void setTimes(Path path, TimeChange atime, TimeChange mtime) throws NfsException {
        if (lp64Linux) {
            checkExtra(extra.utimensat(AT_FDCWD, path.toString(), timespecs(atime, mtime), AT_SYMLINK_NOFOLLOW),
                    "utimensat", path);
        } else {
            check(posix.utimensat(AT_FDCWD, path.toString(), timespec(atime), timespec(mtime), AT_SYMLINK_NOFOLLOW),
                    "utimensat", path);
        }
    }

    /** {@code futimens(2)} of the open file {@code fd}, which is {@code path} (for the error). */
    private void setTimes(int fd, Path path, TimeChange atime, TimeChange mtime) throws NfsException {
        if (lp64Linux) {
            checkExtra(extra.futimens(fd, timespecs(atime, mtime)), "futimens", path);
        } else {
            check(posix.futimens(fd, timespec(atime), timespec(mtime)), "futimens", path);
        }
    }

    /**
     * Total and free file slots of the file system holding {@code path}, or {@code null} where
     * {@code statvfs} is not known to this code (only 64-bit Linux is).
     */
    long[] fileSlots(Path path) throws NfsException {
        if (!lp64Linux) {
            return null;
        }
        byte[] buffer = new byte[STATVFS_SIZE];
        if (extra.statvfs(path.toString(), buffer) < 0) {
            throw FsErrors.of(LastError.getLastError(extraRuntime), "statvfs", path);
        }
        ByteBuffer in = ByteBuffer.wrap(buffer).order(ByteOrder.nativeOrder());
        // struct statvfs on LP64 Linux: f_bsize, f_frsize, f_blocks, f_bfree, f_bavail, f_files, f_ffree, ...
        return new long[] {in.getLong(40), in.getLong(48)};
    }

    /** Decodes a link target as UTF-8 (malformed bytes become U+FFFD). */
    static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static long[] timespec(TimeChange change) {
        if (change == null) {
            return new long[] {0, UTIME_OMIT};
        }
        if (change.isServerTime()) {
            return new long[] {0, UTIME_NOW};
        }
        return new long[] {change.at().getEpochSecond(), change.at().getNano()};
    }

    /** Access and modification time as {@code struct timespec[2]} of 64-bit Linux (see {@link Extra#futimens}). */
    private static long[] timespecs(TimeChange atime, TimeChange mtime) {
        long[] a = timespec(atime);
        long[] m = timespec(mtime);
        return new long[] {a[0], a[1], m[0], m[1]};
    }

    /** As {@link #check}, for a call of {@link Extra}, whose errno jnr-posix does not see. */
    private void checkExtra(int result, String call, Path path) throws NfsException {
        if (result < 0) {
            throw FsErrors.of(LastError.getLastError(extraRuntime), call, path);
        }
    }

    private void check(int result, String call, Path path) throws NfsException {
        if (result < 0) {
            throw FsErrors.of(posix.errno(), call, path);
        }
    }

    /** Reports nothing and throws nothing: callers read errno themselves. */
    private static final class QuietHandler implements POSIXHandler {
        @Override
        public void error(Errno error, String extraData) {
        }

        @Override
        public void error(Errno error, String methodName, String extraData) {
        }

        @Override
        public void unimplementedError(String methodName) {
            throw new UnsupportedOperationException(methodName + " is not implemented natively");
        }

        @Override
        public void warn(WARNING_ID id, String message, Object... data) {
        }

        @Override
        public boolean isVerbose() {
            return false;
        }

        @Override
        public File getCurrentWorkingDirectory() {
            return new File(".");
        }

        @Override
        public String[] getEnv() {
            return new String[0];
        }

        @Override
        public InputStream getInputStream() {
            return InputStream.nullInputStream();
        }

        @Override
        public PrintStream getOutputStream() {
            return System.out;
        }

        @Override
        public int getPID() {
            return (int) ProcessHandle.current().pid();
        }

        @Override
        public PrintStream getErrorStream() {
            return System.err;
        }
    }
}
