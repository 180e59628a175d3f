package org.tcnfs.txn.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a transaction locks: a path inside an export, or an object (an inode) of an export.
 *
 * <p>A {@link Kind#PATH} key names an object by its place in the tree: the export id and the list of name
 * components from the export root (empty for the root itself). Names that do not exist yet are fine
 * ({@code mkdir a; mkdir a/b} locks {@code a} and {@code a/b}). A path key's ancestors are the keys of its
 * proper prefixes, up to and including the root; the lock manager read-locks them, so a directory rename
 * (a write lock on the directory's key) conflicts with any work beneath it.
 *
 * <p>An {@link Kind#OBJECT} key names one file object by its file id (for example the inode number), with
 * no place in the tree and no ancestors. The compound layer adds one for each file it reaches, so two names
 * of one hard-linked file, which have different path keys, still exclude each other. Its components are
 * empty; a path key's {@code fileId} is 0.
 *
 * <p>Total order ({@link #compareTo}), consistent with {@link #equals}: by export id, then path keys before
 * object keys; path keys component by component, each name in the order of its UTF-8 bytes (unsigned),
 * a shorter path before a longer one with the same leading components (so a parent sorts before its
 * children, and {@code a/z} before {@code ab}); object keys by file id, unsigned. Strings are compared by
 * Unicode code point, which is the same order as their UTF-8 encodings; an unpaired surrogate (not valid
 * UTF-8) sorts by its UTF-16 code unit value.
 *
 * <p>{@link #hashCode} is computed from the fields' values only, so it is the same in every run (the lock
 * manager hashes keys by it); it is computed once, when the key is made, as the lock manager hashes each key several
 * times per compound. A value class with the accessors a record would have: {@link #exportId()}, {@link #kind()},
 * {@link #components()}, {@link #fileId()}. Immutable; a {@link #parent()} shares its child's list of names.
 */
public final class LockKey implements Comparable<LockKey> {

    /** Whether a key names a place in the tree or an object. */
    public enum Kind {
        /** A path from the export root; has ancestors. */
        PATH,
        /** A file object by file id; has no ancestors. Sorts after every path of its export. */
        OBJECT
    }

    private final String exportId;
    private final Kind kind;
    private final List<String> components;
    private final long fileId;
    private final int hash;

    /**
     * @param exportId   the export the key belongs to, not empty
     * @param kind       a path or an object
     * @param components for a path, the names from the export root, each non-empty, without {@code '/'} or
     *                   NUL, and neither {@code "."} nor {@code ".."}; empty for the root and for objects
     * @param fileId     for an object, its file id (any 64-bit value, read as unsigned); 0 for paths
     */
    public LockKey(String exportId, Kind kind, List<String> components, long fileId) {
        Objects.requireNonNull(exportId, "exportId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(components, "components");
        if (exportId.isEmpty()) {
            throw new IllegalArgumentException("empty export id");
        }
        List<String> names = List.copyOf(components);
        for (int i = 0; i < names.size(); i++) {
            checkName(names.get(i));
        }
        if (kind == Kind.OBJECT && !names.isEmpty()) {
            throw new IllegalArgumentException("an object key has no path components: " + names);
        }
        if (kind == Kind.PATH && fileId != 0) {
            throw new IllegalArgumentException("a path key has no file id: " + fileId);
        }
        this.exportId = exportId;
        this.kind = kind;
        this.components = names;
        this.fileId = fileId;
        this.hash = hash(exportId, kind, names, fileId);
    }

    /** A path key of names already checked, in an immutable list (a {@link #parent()}'s, shared with its child). */
    private LockKey(String exportId, List<String> checkedNames) {
        this.exportId = exportId;
        this.kind = Kind.PATH;
        this.components = checkedNames;
        this.fileId = 0;
        this.hash = hash(exportId, Kind.PATH, checkedNames, 0);
    }

    private static int hash(String exportId, Kind kind, List<String> components, long fileId) {
        int h = exportId.hashCode();
        h = 31 * h + components.hashCode();
        if (kind == Kind.OBJECT) {
            h = 31 * h + 0x5bd1e995 + Long.hashCode(fileId);
        }
        return h;
    }

    /** The export the key belongs to. */
    public String exportId() {
        return exportId;
    }

    /** A path or an object. */
    public Kind kind() {
        return kind;
    }

    /** For a path, the names from the export root (immutable); empty for the root and for objects. */
    public List<String> components() {
        return components;
    }

    /** For an object, its file id (read as unsigned); 0 for paths. */
    public long fileId() {
        return fileId;
    }

    /** The key of the export root of {@code exportId}. */
    public static LockKey root(String exportId) {
        return new LockKey(exportId, Kind.PATH, List.of(), 0);
    }

    /** The path key of {@code components}, from the export root. */
    public static LockKey ofPath(String exportId, List<String> components) {
        return new LockKey(exportId, Kind.PATH, components, 0);
    }

    /** The path key of {@code components}, from the export root. */
    public static LockKey ofPath(String exportId, String... components) {
        return ofPath(exportId, List.of(components));
    }

    /**
     * The path key of a {@code '/'}-separated path relative to the export root; leading, trailing and
     * repeated slashes are ignored, so {@code ""} and {@code "/"} are the root.
     *
     * @throws IllegalArgumentException if a component is {@code "."} or {@code ".."} or holds NUL
     */
    public static LockKey parse(String exportId, String relativePath) {
        Objects.requireNonNull(relativePath, "relativePath");
        List<String> names = new ArrayList<>();
        for (String name : relativePath.split("/")) {
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return ofPath(exportId, names);
    }

    /** The object key of file {@code fileId} of export {@code exportId}; it has no ancestors. */
    public static LockKey ofObject(String exportId, long fileId) {
        return new LockKey(exportId, Kind.OBJECT, List.of(), fileId);
    }

    /** Whether this is a path key. */
    public boolean isPath() {
        return kind == Kind.PATH;
    }

    /** Whether this is an object key. */
    public boolean isObject() {
        return kind == Kind.OBJECT;
    }

    /** Whether this is the key of an export root. */
    public boolean isRoot() {
        return kind == Kind.PATH && components.isEmpty();
    }

    /** The number of path components: 0 for the root and for objects. */
    public int depth() {
        return components.size();
    }

    /** The key of the parent directory; empty for the root and for objects. */
    public Optional<LockKey> parent() {
        return Optional.ofNullable(parentOrNull());
    }

    /** {@link #parent()} without the {@code Optional}, for the lock manager's expansion of every compound's keys. */
    LockKey parentOrNull() {
        if (kind == Kind.OBJECT || components.isEmpty()) {
            return null;
        }
        return new LockKey(exportId, components.subList(0, components.size() - 1));
    }

    /**
     * The key of {@code name} in this directory.
     *
     * @throws IllegalStateException if this is an object key
     * @throws IllegalArgumentException if {@code name} is not a valid name
     */
    public LockKey child(String name) {
        if (kind == Kind.OBJECT) {
            throw new IllegalStateException("an object key has no children: " + this);
        }
        checkName(name);
        List<String> names = new ArrayList<>(components.size() + 1);
        names.addAll(components);
        names.add(name);
        return ofPath(exportId, names);
    }

    /**
     * The proper ancestors, root first: for {@code a/b/c} the keys of the root, {@code a} and {@code a/b}.
     * Empty for the root and for objects.
     */
    public List<LockKey> ancestors() {
        if (kind == Kind.OBJECT || components.isEmpty()) {
            return List.of();
        }
        List<LockKey> result = new ArrayList<>(components.size());
        for (int length = 0; length < components.size(); length++) {
            result.add(new LockKey(exportId, components.subList(0, length)));
        }
        return List.copyOf(result);
    }

    /** Whether this key is a proper ancestor of {@code other} (same export, a proper prefix of its path). */
    public boolean isAncestorOf(LockKey other) {
        return kind == Kind.PATH
                && other.kind == Kind.PATH
                && exportId.equals(other.exportId)
                && components.size() < other.components.size()
                && other.components.subList(0, components.size()).equals(components);
    }

    @Override
    public int compareTo(LockKey other) {
        int c = compareUtf8(exportId, other.exportId);
        if (c != 0) {
            return c;
        }
        c = kind.compareTo(other.kind);
        if (c != 0) {
            return c;
        }
        if (kind == Kind.OBJECT) {
            return Long.compareUnsigned(fileId, other.fileId);
        }
        int common = Math.min(components.size(), other.components.size());
        for (int i = 0; i < common; i++) {
            c = compareUtf8(components.get(i), other.components.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(components.size(), other.components.size());
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /** Same export, kind, names and file id. */
    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof LockKey other && hash == other.hash && fileId == other.fileId
                && kind == other.kind && exportId.equals(other.exportId) && components.equals(other.components);
    }

    /** {@code export:/a/b} for paths, {@code inode:export/123} for objects. */
    @Override
    public String toString() {
        if (kind == Kind.OBJECT) {
            return "inode:" + exportId + "/" + Long.toUnsignedString(fileId);
        }
        return exportId + ":/" + String.join("/", components);
    }

    /**
     * Compares two strings in the order of their UTF-8 encodings (unsigned bytes), which is the order of
     * their Unicode code points.
     */
    static int compareUtf8(String a, String b) {
        if (a.equals(b)) { // the common case between keys of one directory: an intrinsic, no char loop
            return 0;
        }
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char ca = a.charAt(i);
            char cb = b.charAt(j);
            if (!Character.isSurrogate(ca) && !Character.isSurrogate(cb)) {
                if (ca != cb) {
                    return Character.compare(ca, cb);
                }
                i++;
                j++;
                continue;
            }
            int pa = a.codePointAt(i);
            int pb = b.codePointAt(j);
            if (pa != pb) {
                return Integer.compare(pa, pb);
            }
            i += Character.charCount(pa);
            j += Character.charCount(pb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    private static void checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty() || name.equals(".") || name.equals("..")
                || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a valid name component: \"" + name + "\"");
        }
    }
}
