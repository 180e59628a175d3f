package org.tcnfs.nfs4.export;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.tcnfs.nfs4.vfs.Credential;
import org.tcnfs.nfs4.vfs.FileSystemId;
import org.tcnfs.nfs4.vfs.FileSystemProvider;
import org.tcnfs.nfs4.vfs.Inode;

/**
 * The server's exports: gives each request a {@link PseudoFs}, the exports its client may see joined
 * under one pseudo root, with export options and permission checks applied.
 *
 * <p>Each export gets a {@link FileSystemId} derived from its pseudo path (stable when exports are
 * reordered or added); the synthetic pseudo directories share {@link #PSEUDO_FSID}.
 *
 * <p>Immutable and thread-safe (it keeps the immutable views it handed out, at most {@link #MAX_CACHED_VIEWS}).
 */
public final class ExportTable implements FileSystemProvider {
    /** The file system id of the synthetic pseudo directories. */
    public static final FileSystemId PSEUDO_FSID = new FileSystemId(0, 0);

    /** Length of the handles of synthetic pseudo directories. */
    static final int PSEUDO_HANDLE_LENGTH = 16;
    private static final byte[] PSEUDO_PREFIX = {'t', 'c', 'P', 'S'};

    private final List<Mount> mounts;
    private final List<Mount> routingOrder;
    private final Set<Inode> pseudoHandles;
    private final Set<Integer> handleLengths;
    private final Instant created;
    /** The views handed out, by caller; emptied when it reaches {@link #MAX_CACHED_VIEWS}. */
    private final Map<Caller, PseudoFs> views = new ConcurrentHashMap<>();

    /**
     * Most caller views kept ({@link #forCaller}): a view is immutable and costs a pass over every export to
     * build, and a client sends the same credential from the same address compound after compound; a client that
     * forges ever new credentials only empties the cache.
     */
    static final int MAX_CACHED_VIEWS = 256;

    /** A caller: credential before squashing, and address. */
    private record Caller(Credential credential, InetAddress client) {
    }

    /**
     * A table of {@code exports} with the system clock.
     *
     * @throws IllegalArgumentException if two exports have the same path
     * @throws UncheckedIOException if a file system cannot name its root
     */
    public ExportTable(List<Export> exports) {
        this(exports, Clock.systemUTC());
    }

    /**
     * A table of {@code exports}; {@code clock} gives the times of the pseudo directories.
     *
     * @throws IllegalArgumentException if two exports have the same path
     * @throws UncheckedIOException if a file system cannot name its root
     */
    public ExportTable(List<Export> exports, Clock clock) {
        this.created = clock.instant();
        List<Mount> list = new ArrayList<>();
        Map<String, Export> byPath = new HashMap<>();
        Set<FileSystemId> fsids = new HashSet<>();
        Set<Inode> pseudo = new HashSet<>();
        Set<Integer> lengths = new HashSet<>();
        lengths.add(PSEUDO_HANDLE_LENGTH);
        for (Export export : exports) {
            Export earlier = byPath.putIfAbsent(export.path(), export);
            if (earlier != null) {
                throw new IllegalArgumentException("two exports at " + export.path());
            }
            FileSystemId fsid = new FileSystemId(positiveHash("fsid", export.path()), 0);
            if (!fsids.add(fsid)) {
                throw new IllegalArgumentException("file system id collision at " + export.path());
            }
            try {
                lengths.add(export.fs().getRootInode().length());
            } catch (IOException e) {
                throw new UncheckedIOException("export " + export.path() + " has no root", e);
            }
            for (String a = parentPath(export.path()); a != null; a = parentPath(a)) {
                pseudo.add(pseudoHandle(a));
            }
            list.add(new Mount(export, fsid));
        }
        pseudo.add(pseudoHandle("/"));
        this.mounts = List.copyOf(list);
        List<Mount> order = new ArrayList<>(list);
        order.sort(Comparator.comparingInt((Mount m) -> m.export().path().length()).reversed());
        this.routingOrder = List.copyOf(order);
        this.pseudoHandles = Set.copyOf(pseudo);
        this.handleLengths = Set.copyOf(lengths);
    }

    /** The exports in the order given. */
    public List<Export> exports() {
        return mounts.stream().map(Mount::export).toList();
    }

    /**
     * The view of the exports for a caller with {@code credential} (before squashing) at {@code client}.
     */
    @Override
    public PseudoFs forCaller(Credential credential, InetAddress client) {
        Objects.requireNonNull(credential, "credential");
        Objects.requireNonNull(client, "client");
        Caller caller = new Caller(credential, client);
        PseudoFs view = views.get(caller);
        if (view == null) {
            view = new PseudoFs(this, credential, client);
            if (views.size() >= MAX_CACHED_VIEWS) {
                views.clear();
            }
            views.put(caller, view);
        }
        return view;
    }

    // ---- for PseudoFs ----

    /** An export with its file system id. */
    record Mount(Export export, FileSystemId fsid) {
    }

    List<Mount> mounts() {
        return mounts;
    }

    /** Mounts with the longest path first. */
    List<Mount> routingOrder() {
        return routingOrder;
    }

    /** Whether {@code inode} is the handle of some pseudo directory of the full table. */
    boolean isPseudoHandle(Inode inode) {
        return pseudoHandles.contains(inode);
    }

    /** Whether some file system of the table (or the pseudo file system) issues handles this long. */
    boolean isPlausibleLength(int length) {
        return handleLengths.contains(length);
    }

    Instant created() {
        return created;
    }

    /** The handle of the pseudo directory at {@code path}. */
    static Inode pseudoHandle(String path) {
        byte[] digest = digest("node", path);
        byte[] handle = new byte[PSEUDO_HANDLE_LENGTH];
        System.arraycopy(PSEUDO_PREFIX, 0, handle, 0, PSEUDO_PREFIX.length);
        System.arraycopy(digest, 0, handle, PSEUDO_PREFIX.length, PSEUDO_HANDLE_LENGTH - PSEUDO_PREFIX.length);
        return Inode.of(handle);
    }

    /** The file id of the pseudo directory (or mount point) at {@code path}. */
    static long pseudoFileId(String path) {
        return positiveHash("fileid", path);
    }

    /** The parent of an absolute normalized path, or null for "/". */
    static String parentPath(String path) {
        if (path.equals("/")) {
            return null;
        }
        int slash = path.lastIndexOf('/');
        return slash == 0 ? "/" : path.substring(0, slash);
    }

    /** {@code parent}/{@code name} for an absolute normalized parent. */
    static String childPath(String parent, String name) {
        return parent.equals("/") ? "/" + name : parent + "/" + name;
    }

    private static long positiveHash(String purpose, String path) {
        long value = ByteBuffer.wrap(digest(purpose, path)).getLong() & Long.MAX_VALUE;
        return value == 0 ? 1 : value;
    }

    private static byte[] digest(String purpose, String path) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(("tcnfs pseudo " + purpose + "\0").getBytes(StandardCharsets.UTF_8));
            return sha.digest(path.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    @Override
    public String toString() {
        return "ExportTable" + Arrays.toString(mounts.stream().map(m -> m.export().path()).toArray());
    }
}
