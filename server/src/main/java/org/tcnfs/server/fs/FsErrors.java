package org.tcnfs.server.fs;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import jnr.constants.platform.Errno;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.status.AccessException;
import org.tcnfs.nfs4.status.DQuotException;
import org.tcnfs.nfs4.status.ExistException;
import org.tcnfs.nfs4.status.FBigException;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.IoException;
import org.tcnfs.nfs4.status.IsDirException;
import org.tcnfs.nfs4.status.MLinkException;
import org.tcnfs.nfs4.status.NameTooLongException;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.nfs4.status.NoEntException;
import org.tcnfs.nfs4.status.NoSpcException;
import org.tcnfs.nfs4.status.NotDirException;
import org.tcnfs.nfs4.status.NotEmptyException;
import org.tcnfs.nfs4.status.PermException;
import org.tcnfs.nfs4.status.RoFsException;
import org.tcnfs.nfs4.status.XDevException;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.HandleTableException;

/**
 * The one place where local failures become NFS statuses: errno values from system calls, NIO exceptions
 * (whose messages are the C library's {@code strerror} texts) and handle-table failures.
 *
 * <pre>
 * ENOENT NOENT   EEXIST EXIST   ENOTDIR NOTDIR   EISDIR ISDIR   ENOTEMPTY NOTEMPTY   EXDEV XDEV
 * ENOSPC NOSPC   EDQUOT DQUOT   EMLINK MLINK     ENAMETOOLONG NAMETOOLONG   EACCES, ETXTBSY ACCESS
 * EPERM PERM     EROFS ROFS     EINVAL INVAL     EFBIG FBIG   ELOOP (a symbolic link in the way) NOENT
 * anything else: IO, logged with its cause
 * </pre>
 *
 * <p>Stateless; thread-safe.
 */
final class FsErrors {
    private static final Logger LOG = LoggerFactory.getLogger(FsErrors.class);

    /** strerror text -> errno, for the exceptions NIO raises with only a message. */
    private static final Map<String, Errno> BY_MESSAGE = new HashMap<>();

    static {
        for (Errno errno : new Errno[] {Errno.ENOENT, Errno.EEXIST, Errno.ENOTDIR, Errno.EISDIR,
                Errno.ENOTEMPTY, Errno.EXDEV, Errno.ENOSPC, Errno.EDQUOT, Errno.EMLINK, Errno.ENAMETOOLONG,
                Errno.EACCES, Errno.EPERM, Errno.EROFS, Errno.EINVAL, Errno.EFBIG, Errno.ETXTBSY, Errno.ELOOP}) {
            if (errno.defined()) {
                BY_MESSAGE.put(errno.description(), errno);
            }
        }
    }

    private FsErrors() {
    }

    /** The exception for {@code errno} from {@code call} on {@code path}. */
    static NfsException of(int errno, String call, Path path) {
        return of(Errno.valueOf(errno), call + " " + path, null);
    }

    /**
     * The exception for a failed {@code rename(2)}: as {@link #of(int, String, Path)}, except that a target
     * that cannot be replaced (ENOTEMPTY, EEXIST, ENOTDIR, EISDIR) is EXIST, as the SPI states.
     */
    static NfsException ofRename(int errno, Path from, Path to) {
        Errno e = Errno.valueOf(errno);
        String what = "rename " + from + " -> " + to;
        if (e == Errno.ENOTEMPTY || e == Errno.EEXIST || e == Errno.ENOTDIR || e == Errno.EISDIR) {
            return new ExistException(what + ": " + e.name());
        }
        return of(e, what, null);
    }

    /** The exception for an {@link IOException} NIO raised while doing {@code what}. */
    static NfsException of(IOException e, String what) {
        if (e instanceof NfsException nfs) {
            return nfs;
        }
        if (e instanceof NoSuchFileException) {
            return new NoEntException(what, e);
        }
        if (e instanceof FileAlreadyExistsException) {
            return new ExistException(what, e);
        }
        if (e instanceof DirectoryNotEmptyException) {
            return new NotEmptyException(what, e);
        }
        if (e instanceof NotDirectoryException) {
            return new NotDirException(what, e);
        }
        if (e instanceof AccessDeniedException) {
            return new AccessException(what, e);
        }
        if (e instanceof ClosedChannelException) {
            return io(what, e);
        }
        String message = e instanceof FileSystemException fse ? fse.getReason() : e.getMessage();
        Errno errno = message == null ? null : BY_MESSAGE.get(message);
        return of(errno, what, e);
    }

    /** The exception for a path that the platform cannot represent. */
    static NfsException of(InvalidPathException e, String what) {
        return new InvalException(what + ": " + e.getMessage(), e);
    }

    /** The exception for a handle-table failure: a full table is NOSPC, anything else IO. */
    static NfsException of(HandleTableException e, String what) {
        if (e instanceof HandleTable.MapFullException) {
            LOG.error("{}: the handle table is full", what, e);
            return new NoSpcException(what + ": handle table full", e);
        }
        return io(what + ": handle table failed", e);
    }

    private static NfsException of(Errno errno, String what, Throwable cause) {
        if (errno == null) {
            return io(what, cause);
        }
        String message = what + ": " + errno.name();
        return switch (errno) {
            case ENOENT, ELOOP -> new NoEntException(message, cause);
            case EEXIST -> new ExistException(message, cause);
            case ENOTDIR -> new NotDirException(message, cause);
            case EISDIR -> new IsDirException(message, cause);
            case ENOTEMPTY -> new NotEmptyException(message, cause);
            case EXDEV -> new XDevException(message, cause);
            case ENOSPC -> new NoSpcException(message, cause);
            case EDQUOT -> new DQuotException(message, cause);
            case EMLINK -> new MLinkException(message, cause);
            case ENAMETOOLONG -> new NameTooLongException(message, cause);
            case EACCES, ETXTBSY -> new AccessException(message, cause);
            case EPERM -> new PermException(message, cause);
            case EROFS -> new RoFsException(message, cause);
            case EINVAL -> new InvalException(message, cause);
            case EFBIG -> new FBigException(message, cause);
            default -> io(message, cause);
        };
    }

    private static NfsException io(String what, Throwable cause) {
        if (cause == null) {
            LOG.error("{} failed", what);
        } else {
            LOG.error("{} failed", what, cause);
        }
        return new IoException(what, cause);
    }
}
