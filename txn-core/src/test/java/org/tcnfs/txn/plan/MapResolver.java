package org.tcnfs.txn.plan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tcnfs.nfs4.vfs.Inode;

/**
 * A {@link PathResolver} over maps, counting its calls: handles to places, paths to handles, and a pseudo
 * tree whose leaves are export roots.
 */
final class MapResolver implements PathResolver {
    private final Map<Inode, ResolvedPath> handles = new HashMap<>();
    private final Map<ObjectPath, Inode> objects = new HashMap<>();
    private final Map<List<String>, ResolvedPath> pseudoTree = new HashMap<>();
    private ResolvedPath root;
    private int nextHandle = 1;
    final List<Inode> resolveCalls = new ArrayList<>();
    final List<ObjectPath> identifyCalls = new ArrayList<>();
    /** The parent directory's handle the planner gave with each path it identified, where it knew one. */
    final Map<ObjectPath, Inode> identifyParents = new HashMap<>();

    /** A resolver whose root is the root of export {@code exportId}. */
    static MapResolver rootedAt(String exportId) {
        MapResolver resolver = new MapResolver();
        resolver.root = ObjectPath.root(exportId);
        return resolver;
    }

    /** A resolver with a pseudo root in which {@code name} leads to the root of export {@code exportId}. */
    static MapResolver withPseudoRoot(String name, String exportId) {
        MapResolver resolver = new MapResolver();
        resolver.root = ResolvedPath.Pseudo.root();
        resolver.pseudoTree.put(List.of(name), ObjectPath.root(exportId));
        return resolver;
    }

    /** Registers an object at {@code path} and returns its new handle. */
    Inode add(ObjectPath path) {
        Inode handle = Inode.of(new byte[] {0x7f, (byte) nextHandle++, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
        handles.put(handle, path);
        objects.put(path, handle);
        return handle;
    }

    /** A second name {@code path} of the object with {@code handle} (a hard link). */
    void alias(ObjectPath path, Inode handle) {
        objects.put(path, handle);
    }

    /** The object with {@code handle} now resolves to {@code path} (someone renamed it). */
    void move(Inode handle, ResolvedPath path) {
        handles.put(handle, path);
    }

    /** The name {@code path} is gone (someone removed it); its handle no longer resolves. */
    void remove(ObjectPath path) {
        Inode handle = objects.remove(path);
        if (handle != null) {
            handles.remove(handle);
        }
    }

    /** A handle of a pseudo directory. */
    Inode addPseudo(List<String> components) {
        Inode handle = Inode.of(new byte[] {0x01, (byte) nextHandle++});
        handles.put(handle, new ResolvedPath.Pseudo(components));
        return handle;
    }

    @Override
    public ResolvedPath resolve(Inode handle) throws IOException {
        resolveCalls.add(handle);
        return handles.getOrDefault(handle, new ResolvedPath.Unresolvable("stale handle " + handle));
    }

    @Override
    public ResolvedPath root() {
        return root;
    }

    @Override
    public ResolvedPath lookup(ResolvedPath dir, String name) throws IOException {
        if (dir instanceof ResolvedPath.Pseudo pseudo) {
            List<String> child = new ArrayList<>(pseudo.components());
            child.add(name);
            return pseudoTree.getOrDefault(List.copyOf(child),
                    new ResolvedPath.Unresolvable("no " + name + " in " + pseudo));
        }
        return PathResolver.super.lookup(dir, name);
    }

    @Override
    public ResolvedPath parent(ResolvedPath dir) throws IOException {
        if (dir instanceof ObjectPath path && path.isRoot() && root instanceof ResolvedPath.Pseudo) {
            return ResolvedPath.Pseudo.root();
        }
        return PathResolver.super.parent(dir);
    }

    @Override
    public Optional<Inode> identify(ObjectPath path) {
        identifyCalls.add(path);
        return Optional.ofNullable(objects.get(path));
    }

    /** Records the parent the planner named ({@link #identifyParents}), then answers as {@link #identify(ObjectPath)}. */
    @Override
    public Optional<Inode> identify(ObjectPath path, Inode parent) {
        if (parent != null) {
            identifyParents.put(path, parent);
        }
        return identify(path);
    }
}
