package org.tcnfs.txn.backup;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import jnr.constants.platform.Errno;
import jnr.constants.platform.OpenFlags;
import jnr.ffi.LastError;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Platform;
import jnr.ffi.Runtime;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.annotations.Variadic;
import jnr.ffi.types.off_t;
import jnr.ffi.types.u_int64_t;

/**
 * The only class that calls native code (jnr-ffi, libc): {@code FICLONERANGE} between two files,
 * {@code fsync} of files and directories, {@code renameat2(RENAME_NOREPLACE)}, the walk over a file's
 * allocated extents ({@code lseek} with {@code SEEK_DATA}/{@code SEEK_HOLE}) and hole punching
 * ({@code fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE)}), with raw file descriptors that never
 * leave a method.
 *
 * <p>{@code FICLONERANGE} ({@code ioctl(dest_fd, 0x4020940D, struct file_clone_range *)} with the struct
 * {@code { s64 src_fd; u64 src_offset; u64 src_length; u64 dest_offset; }}) makes a byte range of the
 * destination share the source's blocks, copy-on-write, without copying data. File systems with reflink
 * support it (XFS made with {@code -m reflink=1}, Btrfs); others refuse it. Offsets and the length must be
 * multiples of the file system block size, except that the range may end at the source's end of file; the
 * range must lie within the source.
 *
 * <p>A refused clone is not an exception: {@link #cloneRange} returns the {@code errno} as a
 * {@link CloneResult}, and {@link CloneResult#refused()} says whether a plain copy can stand in for it.
 * Failures to open a file throw {@link IOException}s named after the errno ({@link NoSuchFileException} for
 * {@code ENOENT}, {@link AccessDeniedException} for {@code EACCES}/{@code EPERM}, else
 * {@link FileSystemException}).
 *
 * <p>Paths go to libc as bytes in the JVM's file name encoding ({@code sun.jnu.encoding}), as Java's own
 * file calls do. Linux only (the ioctl number is the one of the generic ioctl encoding used by x86-64 and
 * AArch64). Immutable and thread-safe: one binding serves the whole process.
 */
public final class Reflink {
    /** {@code FICLONERANGE} = {@code _IOW(0x94, 13, struct file_clone_range)}. */
    public static final long FICLONERANGE = 0x4020940DL;

    /** {@code errno} values after which a plain copy can stand in for a clone. */
    private static final Set<Errno> REFUSALS = Set.of(
            Errno.EOPNOTSUPP, // the file system has no reflink (ext4, tmpfs, XFS without reflink=1)
            Errno.EXDEV, // source and destination on different mounts
            Errno.EINVAL, // range not block-aligned in a way the file system accepts, or the fs rejects it
            Errno.ENOTTY, // the file system knows no such ioctl (older kernels, FUSE)
            Errno.ENOSYS, // not implemented at all
            Errno.ETXTBSY); // a swap file or a file being executed: sharing refused, reading still works

    private static final int OPEN_READ = flags(OpenFlags.O_RDONLY, OpenFlags.O_NOFOLLOW, OpenFlags.O_CLOEXEC);
    private static final int OPEN_WRITE = flags(OpenFlags.O_WRONLY, OpenFlags.O_NOFOLLOW, OpenFlags.O_CLOEXEC);
    /** {@code renameat2} arguments: paths relative to the working directory, never replace the target. */
    private static final int AT_FDCWD = -100;
    private static final int RENAME_NOREPLACE = 1;
    /** {@code lseek} whence values of Linux (and the BSDs, Solaris): next data, next hole at or after. */
    private static final int SEEK_DATA = 3;
    private static final int SEEK_HOLE = 4;
    /** {@code fallocate} mode: deallocate the range (reads as zeros after), the size stays. */
    private static final int FALLOC_FL_KEEP_SIZE = 1;
    private static final int FALLOC_FL_PUNCH_HOLE = 2;

    /**
     * The libc functions used. Not API: public only because jnr-ffi implements it in a class of its own
     * class loader, which cannot reach a package-private interface.
     */
    public interface LibC {
        @SaveError
        @Variadic(fixedCount = 2)
        int open(@In byte[] path, int flags, int mode);

        @SaveError
        int close(int fd);

        @SaveError
        int fsync(int fd);

        @SaveError
        @Variadic(fixedCount = 2)
        int ioctl(int fd, @u_int64_t long request, @In long[] argument);

        @SaveError
        int renameat2(int oldDirFd, @In byte[] oldPath, int newDirFd, @In byte[] newPath, int flags);

        @SaveError
        @off_t
        long lseek(int fd, @off_t long offset, int whence);

        @SaveError
        int fallocate(int fd, int mode, @off_t long offset, @off_t long length);
    }

    /** Receives the allocated extents of a walk ({@link #walkData}), in ascending order. */
    @FunctionalInterface
    public interface ExtentVisitor {
        /** Bytes {@code [start, end)} hold data (are allocated); {@code start < end}. */
        void data(long start, long end) throws IOException;
    }

    private final LibC libc;
    private final Runtime runtime;
    private final Charset fileNameCharset;

    private Reflink(LibC libc, Charset fileNameCharset) {
        this.libc = libc;
        this.runtime = Runtime.getRuntime(libc);
        this.fileNameCharset = fileNameCharset;
    }

    /**
     * The process-wide binding, loaded on first use.
     *
     * @throws UnsupportedOperationException when not on Linux or when libc cannot be bound
     */
    public static Reflink load() {
        return Holder.binding();
    }

    /**
     * Clones {@code length} bytes of {@code source} at {@code sourceOffset} into {@code target} at
     * {@code targetOffset}, with {@code FICLONERANGE}. The target must exist; it grows if the range ends past
     * its end. Neither file is synced.
     *
     * @return {@code errno} 0 when the blocks are shared, else the error the kernel gave
     * @throws IOException when a file cannot be opened (missing, a symbolic link, no permission ...)
     */
    public CloneResult cloneRange(Path source, long sourceOffset, long length, Path target, long targetOffset)
            throws IOException {
        if (sourceOffset < 0 || length < 0 || targetOffset < 0) {
            throw new IllegalArgumentException("negative offset or length: " + sourceOffset + ", " + length + ", "
                    + targetOffset);
        }
        int sourceFd = open(source, OPEN_READ);
        try {
            int targetFd = open(target, OPEN_WRITE);
            try {
                long[] range = {sourceFd, sourceOffset, length, targetOffset};
                int rc = libc.ioctl(targetFd, FICLONERANGE, range);
                return rc == 0 ? CloneResult.SUCCESS : new CloneResult(LastError.getLastError(runtime));
            } finally {
                libc.close(targetFd);
            }
        } finally {
            libc.close(sourceFd);
        }
    }

    /**
     * Flushes a file or a directory (its entries) to stable storage with {@code fsync(2)}. A symbolic link
     * is not followed and fails.
     *
     * @throws IOException when the object cannot be opened or the flush fails
     */
    public void fsync(Path path) throws IOException {
        int fd = open(path, OPEN_READ);
        try {
            if (libc.fsync(fd) != 0) {
                throw failure(path, LastError.getLastError(runtime));
            }
        } finally {
            libc.close(fd);
        }
    }

    /**
     * Renames {@code from} to {@code to} atomically unless {@code to} exists ({@code renameat2} with
     * {@code RENAME_NOREPLACE}), so nothing is ever overwritten. Works for directories too.
     *
     * @return {@code true} when renamed; {@code false} when this file system does not support
     *     {@code RENAME_NOREPLACE} ({@code EINVAL}, {@code ENOSYS}) and nothing happened
     * @throws FileAlreadyExistsException when {@code to} exists
     * @throws NoSuchFileException when {@code from} (or the parent of {@code to}) does not exist
     * @throws AtomicMoveNotSupportedException when the two lie on different file systems
     * @throws IOException for any other failure
     */
    public boolean renameNoReplace(Path from, Path to) throws IOException {
        if (libc.renameat2(AT_FDCWD, nativeName(from), AT_FDCWD, nativeName(to), RENAME_NOREPLACE) == 0) {
            return true;
        }
        int errno = LastError.getLastError(runtime);
        String reason = errnoName(errno) + " (" + Errno.valueOf(errno).description() + ")";
        if (errno == Errno.EINVAL.intValue() || errno == Errno.ENOSYS.intValue()) {
            return false;
        }
        if (errno == Errno.EEXIST.intValue()) {
            throw new FileAlreadyExistsException(from.toString(), to.toString(), reason);
        }
        if (errno == Errno.EXDEV.intValue()) {
            throw new AtomicMoveNotSupportedException(from.toString(), to.toString(), reason);
        }
        if (errno == Errno.ENOENT.intValue()) {
            throw new NoSuchFileException(from.toString(), to.toString(), reason);
        }
        if (errno == Errno.EACCES.intValue() || errno == Errno.EPERM.intValue()) {
            throw new AccessDeniedException(from.toString(), to.toString(), reason);
        }
        throw new FileSystemException(from.toString(), to.toString(), reason);
    }

    /**
     * Walks the allocated extents of {@code file} that overlap {@code [from, to)}, clipped to it and to the
     * end of file, in ascending order, with {@code lseek(SEEK_DATA)} and {@code lseek(SEEK_HOLE)}. What lies
     * between two extents is a hole (reads as zeros, takes no space). A file system that does not report
     * holes reports the whole file as one extent (the kernel's generic answer), so a walk never misses data;
     * a file system whose unwritten (preallocated) extents count as holes reports them as holes, which read
     * as zeros too.
     *
     * @return the number of bytes in the extents visited
     * @throws IOException when the file cannot be opened or {@code lseek} fails for another reason than
     *     "no more data"
     */
    public long walkData(Path file, long from, long to, ExtentVisitor visitor) throws IOException {
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("bad range [" + from + ", " + to + ")");
        }
        int fd = open(file, OPEN_READ);
        try {
            long total = 0;
            long position = from;
            while (position < to) {
                long data = libc.lseek(fd, position, SEEK_DATA);
                if (data < 0) {
                    int errno = LastError.getLastError(runtime);
                    if (errno == Errno.ENXIO.intValue()) {
                        break; // no data at or after position before the end of file
                    }
                    if (errno == Errno.EINVAL.intValue() && position == from) {
                        return wholeRange(file, from, to, visitor); // no SEEK_DATA here (old kernels)
                    }
                    throw failure(file, errno);
                }
                if (data >= to) {
                    break;
                }
                long hole = libc.lseek(fd, data, SEEK_HOLE);
                if (hole < 0) {
                    throw failure(file, LastError.getLastError(runtime));
                }
                if (hole <= data) {
                    throw new FileSystemException(file.toString(), null, "SEEK_HOLE from " + data + " gave " + hole);
                }
                long end = Math.min(hole, to);
                long start = Math.max(data, from);
                visitor.data(start, end);
                total += end - start;
                position = hole;
            }
            return total;
        } finally {
            libc.close(fd);
        }
    }

    private static long wholeRange(Path file, long from, long to, ExtentVisitor visitor) throws IOException {
        long end = Math.min(to, java.nio.file.Files.size(file));
        if (end <= from) {
            return 0;
        }
        visitor.data(from, end);
        return end - from;
    }

    /**
     * Deallocates bytes {@code [offset, offset + length)} of {@code file} ({@code fallocate} with
     * {@code FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE}): they read as zeros afterwards and whole blocks in
     * the range take no space; the size does not change, even when the range reaches past the end.
     *
     * @return {@code true} when punched; {@code false} when the file system cannot punch holes
     *     ({@code EOPNOTSUPP}, {@code ENOSYS}) and nothing happened
     * @throws IOException when the file cannot be opened or the call fails otherwise
     */
    public boolean punchHole(Path file, long offset, long length) throws IOException {
        if (offset < 0 || length <= 0) {
            throw new IllegalArgumentException("bad range " + offset + "+" + length);
        }
        int fd = open(file, OPEN_WRITE);
        try {
            if (libc.fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset, length) == 0) {
                return true;
            }
            int errno = LastError.getLastError(runtime);
            if (errno == Errno.EOPNOTSUPP.intValue() || errno == Errno.ENOSYS.intValue()) {
                return false;
            }
            throw failure(file, errno);
        } finally {
            libc.close(fd);
        }
    }

    private byte[] nativeName(Path path) {
        byte[] name = path.toString().getBytes(fileNameCharset);
        return Arrays.copyOf(name, name.length + 1); // NUL-terminated
    }

    private int open(Path path, int flags) throws IOException {
        int fd = libc.open(nativeName(path), flags, 0);
        if (fd < 0) {
            throw failure(path, LastError.getLastError(runtime));
        }
        return fd;
    }

    private static IOException failure(Path path, int errno) {
        String reason = errnoName(errno) + " (" + Errno.valueOf(errno).description() + ")";
        if (errno == Errno.ENOENT.intValue()) {
            return new NoSuchFileException(path.toString(), null, reason);
        }
        if (errno == Errno.EACCES.intValue() || errno == Errno.EPERM.intValue()) {
            return new AccessDeniedException(path.toString(), null, reason);
        }
        return new FileSystemException(path.toString(), null, reason);
    }

    /** The symbolic name of an {@code errno} value ({@code "EOPNOTSUPP"}), {@code "errno N"} if unknown. */
    public static String errnoName(int errno) {
        if (errno == Errno.EOPNOTSUPP.intValue()) {
            return "EOPNOTSUPP"; // ENOTSUP is the same number on Linux; prefer the name the ioctl docs use
        }
        Errno known = Errno.valueOf(errno);
        return known == Errno.__UNKNOWN_CONSTANT__ ? "errno " + errno : known.name();
    }

    private static int flags(OpenFlags... flags) {
        int value = 0;
        for (OpenFlags flag : flags) {
            if (!flag.defined()) {
                throw new UnsupportedOperationException("open flag " + flag.name() + " is not defined here");
            }
            value |= flag.intValue();
        }
        return value;
    }

    /**
     * What one {@code FICLONERANGE} call returned.
     *
     * @param errno 0 on success, else the {@code errno} the kernel set
     */
    public record CloneResult(int errno) {
        static final CloneResult SUCCESS = new CloneResult(0);

        public CloneResult {
            if (errno < 0) {
                throw new IllegalArgumentException("errno " + errno);
            }
        }

        /** The blocks are shared. */
        public boolean succeeded() {
            return errno == 0;
        }

        /**
         * The file system declined this clone but the data can still be read and written, so a plain copy
         * stands in: {@code EOPNOTSUPP}, {@code EXDEV}, {@code EINVAL}, {@code ENOTTY}, {@code ENOSYS},
         * {@code ETXTBSY}. Anything else ({@code EIO}, {@code ENOSPC}, {@code EBADF}, {@code EPERM},
         * {@code EISDIR} ...) would fail a copy too and is an error.
         */
        public boolean refused() {
            return errno != 0 && REFUSALS.stream().anyMatch(refusal -> refusal.intValue() == errno);
        }

        /**
         * The file system does not clone at all ({@code EOPNOTSUPP}, {@code ENOTTY}, {@code ENOSYS}), as
         * opposed to refusing this one request.
         */
        public boolean noReflink() {
            return errno == Errno.EOPNOTSUPP.intValue() || errno == Errno.ENOTTY.intValue()
                    || errno == Errno.ENOSYS.intValue();
        }

        /** The symbolic name of {@link #errno()}, {@code "OK"} on success. */
        public String errnoName() {
            return errno == 0 ? "OK" : Reflink.errnoName(errno);
        }

        @Override
        public String toString() {
            return errnoName();
        }
    }

    /** Lazy, immutable holder of the binding (no loading at class initialization of callers). */
    private static final class Holder {
        private static final Reflink BINDING;
        private static final UnsupportedOperationException FAILURE;

        static {
            Reflink binding = null;
            UnsupportedOperationException failure = null;
            if (Platform.getNativePlatform().getOS() != Platform.OS.LINUX) {
                failure = new UnsupportedOperationException("FICLONERANGE needs Linux, not "
                        + Platform.getNativePlatform().getOS());
            } else {
                try {
                    LibC libc = LibraryLoader.create(LibC.class).load("c");
                    String encoding = Objects.requireNonNullElse(System.getProperty("sun.jnu.encoding"),
                            Charset.defaultCharset().name());
                    binding = new Reflink(libc, Charset.forName(encoding));
                } catch (LinkageError | RuntimeException e) { // jnr-ffi wraps its failures in RuntimeException
                    failure = new UnsupportedOperationException("cannot bind libc: " + e.getMessage(), e);
                }
            }
            BINDING = binding;
            FAILURE = failure;
        }

        static Reflink binding() {
            if (BINDING == null) {
                throw new UnsupportedOperationException(FAILURE.getMessage(), FAILURE);
            }
            return BINDING;
        }
    }
}
