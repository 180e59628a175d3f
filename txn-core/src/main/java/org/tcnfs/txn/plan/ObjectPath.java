package org.tcnfs.txn.plan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.tcnfs.nfs4.ops.Names;
import org.tcnfs.nfs4.status.NfsException;

/**
 * A place in an export, named by the export id and the path components from the export's root; the
 * object there need not exist. Lock keys, backup targets and recovery records all use this form.
 *
 * <p>Immutable; a child shares its parent ({@link #child} is O(1)), the hash code is computed once, and
 * equality is by export id and components. Order ({@link #compareTo}): by export id, then component by
 * component (a path sorts right after its ancestors), then by depth; names compare as strings.
 */
public final class ObjectPath implements ResolvedPath, Comparable<ObjectPath> {
    private final String exportId;
    private final ObjectPath parent;
    private final String name;
    private final int depth;
    private final int hash;

    private ObjectPath(String exportId, ObjectPath parent, String name) {
        this.exportId = exportId;
        this.parent = parent;
        this.name = name;
        this.depth = parent == null ? 0 : parent.depth + 1;
        this.hash = parent == null ? exportId.hashCode() : 31 * parent.hash + name.hashCode();
    }

    /**
     * The root of export {@code exportId}.
     *
     * @throws IllegalArgumentException if {@code exportId} is empty
     */
    public static ObjectPath root(String exportId) {
        Objects.requireNonNull(exportId, "exportId");
        if (exportId.isEmpty()) {
            throw new IllegalArgumentException("empty export id");
        }
        return new ObjectPath(exportId, null, null);
    }

    /**
     * The path {@code components} in export {@code exportId}.
     *
     * @throws IllegalArgumentException if the export id is empty or a component is not a valid name
     *     ({@link Names#checkComponent})
     */
    public static ObjectPath of(String exportId, List<String> components) {
        ObjectPath path = root(exportId);
        for (String component : components) {
            path = path.child(component);
        }
        return path;
    }

    /** The path {@code components} in export {@code exportId}; see {@link #of(String, List)}. */
    public static ObjectPath of(String exportId, String... components) {
        return of(exportId, Arrays.asList(components));
    }

    /**
     * The path of {@code childName} in this directory.
     *
     * @throws IllegalArgumentException if {@code childName} is not a valid name ({@link Names#checkComponent})
     */
    public ObjectPath child(String childName) {
        try {
            Names.checkComponent(childName);
        } catch (NfsException e) {
            throw new IllegalArgumentException("not a valid name: " + e.getMessage(), e);
        }
        return new ObjectPath(exportId, this, childName);
    }

    /** {@link #child} for a name already checked with {@link Names#checkComponent}. */
    ObjectPath checkedChild(String childName) {
        return new ObjectPath(exportId, this, childName);
    }

    /** The parent, or {@code null} for an export root (no allocation, for hot loops). */
    ObjectPath parentOrNull() {
        return parent;
    }

    /** The export this path is in. */
    public String exportId() {
        return exportId;
    }

    /** The directory holding this object; empty for an export root. */
    public Optional<ObjectPath> parent() {
        return Optional.ofNullable(parent);
    }

    /** The last component; empty for an export root. */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    /** Number of components (0 for an export root). */
    public int depth() {
        return depth;
    }

    /** Whether this is the root of its export. */
    public boolean isRoot() {
        return parent == null;
    }

    /** The components from the export root, first to last (an unmodifiable list). */
    public List<String> components() {
        String[] names = new String[depth];
        for (ObjectPath p = this; p.parent != null; p = p.parent) {
            names[p.depth - 1] = p.name;
        }
        return List.of(names); // immutable as a lock key keeps it: LockKey.ofPath takes it without a copy
    }

    /** The proper ancestors of this path, the export root first; empty for an export root. */
    public List<ObjectPath> ancestors() {
        List<ObjectPath> result = new ArrayList<>(depth);
        for (ObjectPath p = parent; p != null; p = p.parent) {
            result.add(p);
        }
        Collections.reverse(result);
        return result;
    }

    /** Whether this path is {@code other} or lies beneath it. */
    public boolean isWithin(ObjectPath other) {
        if (other.depth > depth || !other.exportId.equals(exportId)) {
            return false;
        }
        ObjectPath p = this;
        while (p.depth > other.depth) {
            p = p.parent;
        }
        return p.equals(other);
    }

    /**
     * This path with its prefix {@code from} replaced by {@code to} (what a rename of {@code from} to
     * {@code to} makes of it).
     *
     * @throws IllegalArgumentException unless this path {@link #isWithin} {@code from}
     */
    public ObjectPath rebase(ObjectPath from, ObjectPath to) {
        if (!isWithin(from)) {
            throw new IllegalArgumentException(this + " is not within " + from);
        }
        if (depth == from.depth) {
            return to;
        }
        String[] tail = new String[depth - from.depth];
        ObjectPath p = this;
        for (int i = tail.length - 1; i >= 0; i--) {
            tail[i] = p.name;
            p = p.parent;
        }
        ObjectPath result = to;
        for (String component : tail) {
            result = new ObjectPath(to.exportId, result, component);
        }
        return result;
    }

    @Override
    public int compareTo(ObjectPath other) {
        if (this == other) {
            return 0;
        }
        int byExport = exportId.compareTo(other.exportId);
        if (byExport != 0) {
            return byExport;
        }
        ObjectPath a = this;
        ObjectPath b = other;
        while (a.depth > b.depth) {
            a = a.parent;
        }
        while (b.depth > a.depth) {
            b = b.parent;
        }
        if (a.equals(b)) {
            return Integer.compare(depth, other.depth);
        }
        // same depth, different: climb to the first component from the root where they differ
        while (!a.parent.equals(b.parent)) {
            a = a.parent;
            b = b.parent;
        }
        return a.name.compareTo(b.name);
    }

    /**
     * {@code paths} without duplicates, in {@link #compareTo} order, in time linear in the distinct places
     * on the paths (plus sorting siblings by name), however deep they are: a depth-first walk of the tree
     * they form.
     */
    static List<ObjectPath> sorted(Collection<ObjectPath> paths) {
        if (paths.size() == 1) {
            return List.copyOf(paths); // most compounds of an unmodified client lock one path
        }
        Map<ObjectPath, List<ObjectPath>> children = new HashMap<>();
        List<ObjectPath> roots = new ArrayList<>();
        Set<ObjectPath> seen = new HashSet<>();
        for (ObjectPath path : paths) {
            for (ObjectPath p = path; p != null && seen.add(p); p = p.parent) {
                if (p.parent == null) {
                    roots.add(p);
                } else {
                    children.computeIfAbsent(p.parent, k -> new ArrayList<>()).add(p);
                }
            }
        }
        Set<ObjectPath> wanted = new HashSet<>(paths);
        roots.sort(Comparator.comparing(ObjectPath::exportId));
        List<ObjectPath> result = new ArrayList<>(wanted.size());
        Deque<ObjectPath> stack = new ArrayDeque<>();
        for (int i = roots.size() - 1; i >= 0; i--) {
            stack.push(roots.get(i));
        }
        while (!stack.isEmpty()) {
            ObjectPath node = stack.pop();
            if (wanted.contains(node)) {
                result.add(node);
            }
            List<ObjectPath> below = children.get(node);
            if (below != null) {
                below.sort(Comparator.comparing(p -> p.name));
                for (int i = below.size() - 1; i >= 0; i--) {
                    stack.push(below.get(i));
                }
            }
        }
        return result;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ObjectPath other) || other.hash != hash || other.depth != depth) {
            return false;
        }
        ObjectPath a = this;
        ObjectPath b = other;
        while (a.parent != null) {
            if (a == b) {
                return true;
            }
            if (!a.name.equals(b.name)) {
                return false;
            }
            a = a.parent;
            b = b.parent;
        }
        return a.exportId.equals(b.exportId);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /** {@code export:/a/b}; {@code export:/} for the export root. */
    @Override
    public String toString() {
        return exportId + ":/" + String.join("/", components());
    }
}
