package org.tcnfs.server.fs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tcnfs.txn.handles.Nfh;

/**
 * A bounded cache of open file channels, keyed by handle, so that a stream of READs and WRITEs to one file
 * does not reopen it each time. Channels are opened read-write where possible (never following a symbolic
 * link), read-only where the server may not write. A channel is lent out with a reference count
 * ({@link Lease}); one that is evicted or invalidated while lent is closed when the last lease ends, so no
 * descriptor leaks and none is closed under a reader.
 *
 * <p>Thread-safe.
 */
final class ChannelCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChannelCache.class);

    /** What the caller will do with the channel. */
    enum Use { READ, WRITE }

    private final int capacity;
    private final LinkedHashMap<Nfh, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private boolean closed;

    ChannelCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * A lease on an open channel for the file at {@code path} (already verified to be {@code handle}'s
     * regular file). Close the lease when done.
     *
     * @throws IOException as NIO raises it when the file cannot be opened
     */
    Lease acquire(Nfh handle, Path path, Use use) throws IOException {
        synchronized (this) {
            if (closed) {
                throw new IOException("file system is closed");
            }
            Entry entry = entries.get(handle);
            if (entry != null) {
                if (entry.channel.isOpen() && (use == Use.READ || entry.writable)) {
                    entry.users++;
                    return new Lease(entry);
                }
                entries.remove(handle);
                retire(entry);
            }
        }
        Entry opened = open(handle, path, use);
        synchronized (this) {
            if (closed) {
                opened.channel.close();
                throw new IOException("file system is closed");
            }
            opened.users = 1;
            Entry previous = entries.put(handle, opened);
            if (previous != null) {
                retire(previous);
            }
            Iterator<Map.Entry<Nfh, Entry>> eldest = entries.entrySet().iterator();
            while (entries.size() > capacity && eldest.hasNext()) {
                Entry victim = eldest.next().getValue();
                eldest.remove();
                retire(victim);
            }
            return new Lease(opened);
        }
    }

    /** Drops the channel of {@code handle} (the file went away); it closes when its last lease ends. */
    synchronized void invalidate(Nfh handle) {
        Entry entry = entries.remove(handle);
        if (entry != null) {
            retire(entry);
        }
    }

    /** Number of channels held (open or waiting for their last lease). For tests. */
    synchronized int size() {
        return entries.size();
    }

    /** Closes every idle channel now and every lent one when its lease ends. */
    @Override
    public synchronized void close() {
        closed = true;
        for (Entry entry : entries.values()) {
            retire(entry);
        }
        entries.clear();
    }

    private static Entry open(Nfh handle, Path path, Use use) throws IOException {
        try {
            return new Entry(handle, FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS), true);
        } catch (AccessDeniedException e) {
            if (use == Use.WRITE) {
                throw e;
            }
        } catch (FileSystemException e) {
            // read-only file system, busy executable: reading still works
            if (use == Use.WRITE) {
                throw e;
            }
        }
        return new Entry(handle, FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS), false);
    }

    private void retire(Entry entry) {
        entry.retired = true;
        if (entry.users == 0) {
            closeQuietly(entry);
        }
    }

    private synchronized void release(Entry entry) {
        entry.users--;
        if (entry.retired && entry.users == 0) {
            closeQuietly(entry);
        }
    }

    private static void closeQuietly(Entry entry) {
        try {
            entry.channel.close();
        } catch (IOException e) {
            LOG.warn("closing a cached channel failed", e);
        }
    }

    private static final class Entry {
        final Nfh handle;
        final FileChannel channel;
        final boolean writable;
        int users;
        boolean retired;

        Entry(Nfh handle, FileChannel channel, boolean writable) {
            this.handle = handle;
            this.channel = channel;
            this.writable = writable;
        }
    }

    /** A channel on loan; closing the lease returns it (and never closes it under another user). */
    final class Lease implements AutoCloseable {
        private final Entry entry;
        private boolean released;

        private Lease(Entry entry) {
            this.entry = entry;
        }

        FileChannel channel() {
            return entry.channel;
        }

        /** Makes sure the channel is not handed out again (it was found closed, e.g. by an interrupt). */
        void discard() {
            synchronized (ChannelCache.this) {
                entries.remove(entry.handle, entry);
                entry.retired = true;
            }
        }

        @Override
        public void close() {
            if (!released) {
                released = true;
                release(entry);
            }
        }
    }

}
