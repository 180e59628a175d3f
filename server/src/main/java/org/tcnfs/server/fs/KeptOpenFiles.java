package org.tcnfs.server.fs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.nfs4.status.NfsException;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.handles.Node;

/**
 * Regular files that lost their last name while a client held them open, kept usable by their handles
 * until the last CLOSE (POSIX and knfsd semantics; see {@link org.tcnfs.nfs4.vfs.VirtualFileSystem#keepWhileOpen}).
 * Each kept file holds a {@link FileChannel} (read and write where permitted), through which READ, WRITE and
 * COMMIT go, and a read-only descriptor whose {@code /proc/self/fd} link answers {@code stat} and SETATTR;
 * both are opened by name right before the name goes, and closed when the last open ends
 * ({@link #release}), when the file system closes, and with the process (so a restart leaves nothing
 * behind: nothing is kept on disk).
 *
 * <p>Bounded: at most {@code max} files; beyond that a file is not kept (logged at WARN) and its handle goes
 * stale with its last name, as before. Thread-safe.
 */
final class KeptOpenFiles implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KeptOpenFiles.class);

    /** Where a process's descriptors appear as links. */
    static final Path PROC_FD = Path.of("/proc/self/fd");

    /**
     * One kept file.
     *
     * @param node the handle-table node of the file when it was kept
     * @param fd the read-only descriptor that keeps it alive
     * @param channel the channel its data goes through
     */
    record Kept(Node node, int fd, FileChannel channel) {
        /** The descriptor's {@code /proc/self/fd} link: stat and SETATTR follow it to the file. */
        Path path() {
            return PROC_FD.resolve(Integer.toString(fd));
        }
    }

    private final Posix posix;
    private final int max;
    private final ConcurrentMap<Nfh, Kept> kept = new ConcurrentHashMap<>();
    private boolean closed;

    KeptOpenFiles(Posix posix, int max) {
        this.posix = posix;
        if (max < 0) {
            throw new IllegalArgumentException("max " + max);
        }
        this.max = max;
    }

    /**
     * Keeps the regular file {@code path} (its node {@code node}) usable by {@code handle} after its name
     * goes; whether it is kept (false: the bound is reached or the table closed).
     */
    synchronized boolean keep(Nfh handle, Node node, Path path) throws IOException {
        if (kept.containsKey(handle)) {
            return true;
        }
        if (closed) {
            return false;
        }
        if (kept.size() >= max) {
            LOG.warn("{} open files lost their last name and are kept already (the bound): the handle of {} goes "
                    + "stale with its name although a client holds it open", kept.size(), path);
            return false;
        }
        FileChannel channel = open(path);
        int fd;
        try {
            fd = posix.openToKeep(path);
        } catch (NfsException e) {
            channel.close();
            throw e;
        }
        kept.put(handle, new Kept(node, fd, channel));
        LOG.debug("keeping {} ({}) open for its handle {} until its last CLOSE", path, node.ino(), handle);
        return true;
    }

    /** The kept file of {@code handle}, if any. */
    Optional<Kept> get(Nfh handle) {
        return Optional.ofNullable(kept.get(handle));
    }

    /** Whether {@code handle} names a kept file. */
    boolean contains(Nfh handle) {
        return kept.containsKey(handle);
    }

    /** Stops keeping the file of {@code handle} (its last open ended); whether one was kept. */
    boolean release(Nfh handle) {
        Kept k = kept.remove(handle);
        if (k == null) {
            return false;
        }
        closeQuietly(k);
        LOG.debug("released the kept file of handle {}", handle);
        return true;
    }

    /** How many files are kept now. */
    int size() {
        return kept.size();
    }

    /** Releases every kept file; later {@link #keep} calls keep nothing. Harmless twice. */
    @Override
    public synchronized void close() {
        closed = true;
        for (Nfh handle : kept.keySet()) {
            release(handle);
        }
    }

    private void closeQuietly(Kept k) {
        try {
            k.channel().close();
        } catch (IOException e) {
            LOG.warn("closing the kept channel of {} failed: {}", k.node().handle(), e.toString());
        }
        posix.close(k.fd());
    }

    private static FileChannel open(Path path) throws IOException {
        try {
            return FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        } catch (FileSystemException e) {
            return FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        }
    }
}
