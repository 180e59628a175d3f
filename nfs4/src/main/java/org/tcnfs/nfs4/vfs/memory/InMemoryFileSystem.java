package org.tcnfs.nfs4.vfs.memory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.tcnfs.nfs4.status.BadCookieException;
import org.tcnfs.nfs4.status.BadHandleException;
import org.tcnfs.nfs4.status.BadTypeException;
import org.tcnfs.nfs4.status.ExistException;
import org.tcnfs.nfs4.status.FBigException;
import org.tcnfs.nfs4.status.InvalException;
import org.tcnfs.nfs4.status.IsDirException;
import org.tcnfs.nfs4.status.NoEntException;
import org.tcnfs.nfs4.status.NotDirException;
import org.tcnfs.nfs4.status.NotEmptyException;
import org.tcnfs.nfs4.status.NotSameException;
import org.tcnfs.nfs4.status.StaleException;
import org.tcnfs.nfs4.status.XDevException;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.DirEntry;
import org.tcnfs.nfs4.vfs.DirectoryListing;
import org.tcnfs.nfs4.vfs.FileType;
import org.tcnfs.nfs4.vfs.FsStat;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.nfs4.vfs.ReadResult;
import org.tcnfs.nfs4.vfs.SetAttributes;
import org.tcnfs.nfs4.vfs.Stat;
import org.tcnfs.nfs4.vfs.TimeChange;
import org.tcnfs.nfs4.vfs.VirtualFileSystem;
import org.tcnfs.nfs4.vfs.WriteResult;
import org.tcnfs.nfs4.vfs.WriteStability;

/**
 * A complete {@link VirtualFileSystem} held in memory, for tests and demonstrations.
 *
 * <p>Every object gets a handle of {@value #HANDLE_LENGTH} random bytes. Handles of removed objects stay
 * {@linkplain #recognizes recognized} and answer {@code StaleException}. Regular files, directories,
 * symbolic links, devices, FIFOs and sockets, hard links and link counts are supported. Each
 * modification gives the touched objects a new {@code change} value (from one counter, so it only grows)
 * and updates ctime (and mtime where POSIX does). Reads do not update atime (like {@code noatime}).
 *
 * <p>Directory cookies are stable: each entry keeps the cookie (3 and up) it got when it was named, so a
 * listing can resume after a cookie whose entry has since gone. Each directory has one verifier for its
 * life. Writes are answered {@link WriteStability#FILE_SYNC} (nothing is ever more durable than memory).
 * File contents are limited to about 2 GiB ({@code FBigException} beyond).
 *
 * <p>Thread-safe: one read-write lock guards the whole tree.
 */
public final class InMemoryFileSystem implements VirtualFileSystem {
    /** Length of every handle this file system issues. */
    public static final int HANDLE_LENGTH = 16;

    private static final int MAX_FILE_SIZE = Integer.MAX_VALUE - 16;
    private static final long FIRST_COOKIE = 3;
    private static final long BLOCK = 4096;
    private static final long TOTAL_BYTES = 1L << 40;
    private static final long TOTAL_FILES = 1L << 32;

    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<Inode, Node> nodes = new HashMap<>();
    /** Every handle ever issued, so handles of removed objects are still told apart from foreign ones. */
    private final Set<Inode> issued = new HashSet<>();
    private final Node root;
    private long nextFileId = 1;
    private long changeCounter;
    private long bytesUsed;

    /** An empty file system (a root directory owned by root, mode 0755) on the system clock. */
    public InMemoryFileSystem() {
        this(Clock.systemUTC());
    }

    /** An empty file system (a root directory owned by root, mode 0755) whose times come from {@code clock}. */
    public InMemoryFileSystem(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.root = newNode(FileType.DIRECTORY, Credential.ROOT, 0755);
        root.nlink = 2;
    }

    @Override
    public Inode getRootInode() {
        return root.handle;
    }

    @Override
    public boolean recognizes(Inode inode) {
        lock.readLock().lock();
        try {
            return issued.contains(inode);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public Inode lookup(Inode parent, String name) throws IOException {
        lock.readLock().lock();
        try {
            Entry entry = directory(parent).children.get(name);
            if (entry == null) {
                throw new NoEntException(name);
            }
            return entry.node.handle;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public Inode parentOf(Inode dir) throws IOException {
        lock.readLock().lock();
        try {
            Node node = directory(dir);
            if (node.parent == null) {
                throw new NoEntException("the root has no parent");
            }
            return node.parent.handle;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public Inode create(Inode parent, String name, Credential owner, int mode) throws IOException {
        return make(parent, name, FileType.REGULAR, owner, mode, null, 0, 0);
    }

    @Override
    public Inode mkdir(Inode parent, String name, Credential owner, int mode) throws IOException {
        return make(parent, name, FileType.DIRECTORY, owner, mode, null, 0, 0);
    }

    @Override
    public Inode symlink(Inode parent, String name, String target, Credential owner, int mode)
            throws IOException {
        Objects.requireNonNull(target, "target");
        return make(parent, name, FileType.SYMLINK, owner, mode, target, 0, 0);
    }

    @Override
    public Inode mknod(Inode parent, String name, FileType type, int major, int minor, Credential owner,
            int mode) throws IOException {
        switch (type) {
            case BLOCK, CHAR -> {
                return make(parent, name, type, owner, mode, null, major, minor);
            }
            case FIFO, SOCKET -> {
                return make(parent, name, type, owner, mode, null, 0, 0);
            }
            default -> throw new BadTypeException("mknod cannot make a " + type);
        }
    }

    private Inode make(Inode parent, String name, FileType type, Credential owner, int mode, String target,
            int major, int minor) throws IOException {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(owner, "owner");
        lock.writeLock().lock();
        try {
            Node dir = directory(parent);
            if (dir.children.containsKey(name)) {
                throw new ExistException(name);
            }
            Node node = newNode(type, owner, mode & 07777);
            node.target = target;
            node.rdevMajor = major;
            node.rdevMinor = minor;
            if (target != null) {
                node.size = target.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            }
            if (type == FileType.DIRECTORY) {
                node.nlink = 2;
                node.parent = dir;
                dir.nlink++;
            } else {
                node.nlink = 1;
            }
            addEntry(dir, name, node);
            touchData(dir);
            return node.handle;
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void link(Inode target, Inode parent, String name) throws IOException {
        lock.writeLock().lock();
        try {
            if (!issued.contains(target)) {
                throw new XDevException("not a handle of this file system");
            }
            Node node = node(target);
            Node dir = directory(parent);
            if (node.type == FileType.DIRECTORY) {
                throw new IsDirException("cannot hard-link a directory");
            }
            if (dir.children.containsKey(name)) {
                throw new ExistException(name);
            }
            node.nlink++;
            addEntry(dir, name, node);
            touchMeta(node);
            touchData(dir);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void remove(Inode parent, String name) throws IOException {
        lock.writeLock().lock();
        try {
            Node dir = directory(parent);
            Entry entry = dir.children.get(name);
            if (entry == null) {
                throw new NoEntException(name);
            }
            Node node = entry.node;
            if (node.type == FileType.DIRECTORY && !node.children.isEmpty()) {
                throw new NotEmptyException(name);
            }
            removeEntry(dir, name);
            unlinkNode(dir, node);
            touchData(dir);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void rename(Inode fromParent, String fromName, Inode toParent, String toName) throws IOException {
        lock.writeLock().lock();
        try {
            Node from = directory(fromParent);
            Node to = directory(toParent);
            Entry source = from.children.get(fromName);
            if (source == null) {
                throw new NoEntException(fromName);
            }
            Node moving = source.node;
            Entry existing = to.children.get(toName);
            if (existing != null && existing.node == moving) {
                return;
            }
            if (moving.type == FileType.DIRECTORY) {
                for (Node up = to; up != null; up = up.parent) {
                    if (up == moving) {
                        throw new InvalException("cannot move a directory into itself");
                    }
                }
            }
            if (existing != null) {
                Node victim = existing.node;
                boolean sourceIsDir = moving.type == FileType.DIRECTORY;
                boolean victimIsDir = victim.type == FileType.DIRECTORY;
                if (sourceIsDir != victimIsDir) {
                    throw new ExistException(toName + ": cannot replace a " + victim.type + " by a " + moving.type);
                }
                if (victimIsDir && !victim.children.isEmpty()) {
                    throw new ExistException(toName + ": directory not empty");
                }
                removeEntry(to, toName);
                unlinkNode(to, victim);
            }
            removeEntry(from, fromName);
            addEntry(to, toName, moving);
            if (moving.type == FileType.DIRECTORY && from != to) {
                from.nlink--;
                to.nlink++;
                moving.parent = to;
            }
            touchMeta(moving);
            touchData(from);
            if (to != from) {
                touchData(to);
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public ReadResult read(Inode inode, long offset, ByteBuffer dst) throws IOException {
        if (offset < 0) {
            throw new InvalException("negative offset " + offset);
        }
        lock.readLock().lock();
        try {
            Node node = regularFile(inode);
            if (offset >= node.size) {
                return new ReadResult(0, true);
            }
            int start = (int) offset;
            int count = (int) Math.min(dst.remaining(), node.size - offset);
            dst.put(node.data, start, count);
            return new ReadResult(count, start + count >= node.size);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public WriteResult write(Inode inode, long offset, ByteBuffer data, WriteStability stability)
            throws IOException {
        if (offset < 0) {
            throw new InvalException("negative offset " + offset);
        }
        lock.writeLock().lock();
        try {
            Node node = regularFile(inode);
            int count = data.remaining();
            if (offset + count > MAX_FILE_SIZE) {
                throw new FBigException("in-memory files end at " + MAX_FILE_SIZE + " bytes");
            }
            int end = (int) offset + count;
            if (end > node.size) {
                resize(node, end);
            }
            data.get(node.data, (int) offset, count);
            touchData(node);
            return new WriteResult(count, WriteStability.FILE_SYNC);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void commit(Inode inode, long offset, long count) throws IOException {
        lock.readLock().lock();
        try {
            node(inode);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public Stat getattr(Inode inode) throws IOException {
        lock.readLock().lock();
        try {
            return node(inode).stat();
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public void setattr(Inode inode, SetAttributes attributes) throws IOException {
        lock.writeLock().lock();
        try {
            Node node = node(inode);
            if (attributes.isEmpty()) {
                return;
            }
            if (attributes.size() != null) {
                if (node.type != FileType.REGULAR) {
                    throw new InvalException("size of a " + node.type);
                }
                if (attributes.size() > MAX_FILE_SIZE) {
                    throw new FBigException("in-memory files end at " + MAX_FILE_SIZE + " bytes");
                }
            }
            Instant now = clock.instant();
            if (attributes.size() != null) {
                resize(node, attributes.size().intValue());
                node.mtime = now;
            }
            if (attributes.mode() != null) {
                node.mode = attributes.mode();
            }
            if (attributes.uid() != null) {
                node.uid = attributes.uid();
            }
            if (attributes.gid() != null) {
                node.gid = attributes.gid();
            }
            if (attributes.atime() != null) {
                node.atime = timeOf(attributes.atime(), now);
            }
            if (attributes.mtime() != null) {
                node.mtime = timeOf(attributes.mtime(), now);
            }
            node.ctime = now;
            node.change = ++changeCounter;
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public DirectoryListing list(Inode dir, byte[] verifier, long cookie, int maxEntries) throws IOException {
        lock.readLock().lock();
        try {
            Node node = directory(dir);
            if (cookie != 0) {
                if (cookie < FIRST_COOKIE || cookie >= node.nextCookie) {
                    throw new BadCookieException("unknown cookie " + cookie);
                }
                if (!isZero(verifier) && !Arrays.equals(verifier, node.verifier)) {
                    throw new NotSameException("directory verifier does not match");
                }
            }
            List<DirEntry> entries = new ArrayList<>();
            var tail = node.byCookie.tailMap(cookie, false);
            boolean complete = true;
            for (Map.Entry<Long, String> e : tail.entrySet()) {
                if (entries.size() >= maxEntries) {
                    complete = false;
                    break;
                }
                Entry entry = node.children.get(e.getValue());
                entries.add(new DirEntry(e.getValue(), e.getKey(), entry.node.stat()));
            }
            return new DirectoryListing(node.verifier, entries, complete);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public String readlink(Inode inode) throws IOException {
        lock.readLock().lock();
        try {
            Node node = node(inode);
            if (node.type != FileType.SYMLINK) {
                throw new InvalException("not a symbolic link");
            }
            return node.target;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public FsStat getFsStat(Inode inode) throws IOException {
        lock.readLock().lock();
        try {
            node(inode);
            long free = Math.max(0, TOTAL_BYTES - bytesUsed);
            long freeFiles = Math.max(0, TOTAL_FILES - nodes.size());
            return new FsStat(TOTAL_BYTES, free, free, TOTAL_FILES, freeFiles);
        } finally {
            lock.readLock().unlock();
        }
    }

    // ---- internals (callers hold the lock) ----

    private Node newNode(FileType type, Credential owner, int mode) {
        Inode handle;
        do {
            byte[] bytes = new byte[HANDLE_LENGTH];
            random.nextBytes(bytes);
            handle = Inode.of(bytes);
        } while (issued.contains(handle));
        Instant now = clock.instant();
        Node node = new Node(handle, type, nextFileId++, now);
        node.mode = mode;
        node.uid = owner.uid();
        node.gid = owner.gid();
        node.change = ++changeCounter;
        if (type == FileType.DIRECTORY) {
            random.nextBytes(node.verifier);
            if (isZero(node.verifier)) {
                node.verifier[0] = 1;
            }
        }
        issued.add(handle);
        nodes.put(handle, node);
        return node;
    }

    private Node node(Inode inode) throws IOException {
        Objects.requireNonNull(inode, "inode");
        Node node = nodes.get(inode);
        if (node != null) {
            return node;
        }
        if (issued.contains(inode)) {
            throw new StaleException("object " + inode + " is gone");
        }
        if (inode.length() != HANDLE_LENGTH) {
            throw new BadHandleException("handles of this file system have " + HANDLE_LENGTH + " bytes");
        }
        throw new StaleException("unknown handle " + inode);
    }

    private Node directory(Inode inode) throws IOException {
        Node node = node(inode);
        if (node.type != FileType.DIRECTORY) {
            throw new NotDirException();
        }
        return node;
    }

    private Node regularFile(Inode inode) throws IOException {
        Node node = node(inode);
        if (node.type == FileType.DIRECTORY) {
            throw new IsDirException();
        }
        if (node.type != FileType.REGULAR) {
            throw new InvalException("not a regular file: " + node.type);
        }
        return node;
    }

    private static void addEntry(Node dir, String name, Node node) {
        long cookie = dir.nextCookie++;
        dir.children.put(name, new Entry(cookie, node));
        dir.byCookie.put(cookie, name);
    }

    private static void removeEntry(Node dir, String name) {
        Entry removed = dir.children.remove(name);
        dir.byCookie.remove(removed.cookie);
    }

    /** Drops one link of {@code node} (already taken out of {@code dir}); forgets it at zero links. */
    private void unlinkNode(Node dir, Node node) {
        if (node.type == FileType.DIRECTORY) {
            node.nlink = 0;
            dir.nlink--;
        } else {
            node.nlink--;
        }
        if (node.nlink <= 0) {
            nodes.remove(node.handle);
            bytesUsed -= node.data.length;
            node.data = new byte[0];
        } else {
            touchMeta(node);
        }
    }

    private void resize(Node node, int newSize) {
        if (newSize > node.data.length) {
            int capacity = (int) Math.min(MAX_FILE_SIZE, Math.max(newSize, Math.min(2L * node.data.length, MAX_FILE_SIZE)));
            bytesUsed += capacity - node.data.length;
            node.data = Arrays.copyOf(node.data, capacity);
        } else if (newSize < node.size) {
            Arrays.fill(node.data, newSize, (int) node.size, (byte) 0);
        }
        node.size = newSize;
    }

    /** Contents changed: mtime, ctime and change. */
    private void touchData(Node node) {
        Instant now = clock.instant();
        node.mtime = now;
        node.ctime = now;
        node.change = ++changeCounter;
    }

    /** Metadata changed: ctime and change. */
    private void touchMeta(Node node) {
        node.ctime = clock.instant();
        node.change = ++changeCounter;
    }

    private static Instant timeOf(TimeChange change, Instant now) {
        return change.isServerTime() ? now : change.at();
    }

    private static boolean isZero(byte[] bytes) {
        if (bytes == null) {
            return true;
        }
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private record Entry(long cookie, Node node) {
    }

    /** One object; all fields are guarded by the file system's lock. */
    private static final class Node {
        final Inode handle;
        final FileType type;
        final long fileId;
        final Instant btime;
        int mode;
        int uid;
        int gid;
        int nlink;
        long size;
        byte[] data = new byte[0];
        String target;
        int rdevMajor;
        int rdevMinor;
        Instant atime;
        Instant mtime;
        Instant ctime;
        long change;
        /** Directories only: the directory holding this one ({@code null} for the root). */
        Node parent;
        /** Directories only. */
        final Map<String, Entry> children = new HashMap<>();
        /** Directories only: names by cookie. */
        final TreeMap<Long, String> byCookie = new TreeMap<>();
        long nextCookie = FIRST_COOKIE;
        final byte[] verifier = new byte[8];

        Node(Inode handle, FileType type, long fileId, Instant now) {
            this.handle = handle;
            this.type = type;
            this.fileId = fileId;
            this.btime = now;
            this.atime = now;
            this.mtime = now;
            this.ctime = now;
        }

        Stat stat() {
            long used = type == FileType.REGULAR ? (size + BLOCK - 1) / BLOCK * BLOCK : BLOCK;
            return new Stat(type, mode, nlink, uid, gid, size, used, fileId, rdevMajor, rdevMinor, atime, mtime,
                    ctime, btime, change);
        }
    }
}
