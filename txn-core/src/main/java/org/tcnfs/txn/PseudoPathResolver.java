package org.tcnfs.txn;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.PathResolver;
import org.tcnfs.txn.plan.ResolvedPath;

/**
 * The resolver of an export below a pseudo root (several exports): PUTROOTFH leads to the pseudo root, LOOKUPs
 * through the pseudo directories on the way to the export lead into them, and the export's own path to its
 * root; handles and names inside the export are the wrapped resolver's. A name that leads anywhere else is
 * {@link ResolvedPath.Unresolvable}: {@link CompoundLocker} plans a compound with this resolver only after
 * checking that every name it looks up in the pseudo file system leads towards this export.
 */
final class PseudoPathResolver implements PathResolver {
    private final PathResolver inside;
    private final String exportId;
    private final List<String> components;

    /**
     * @param inside the export's resolver (PUTROOTFH would lead to its root)
     * @param exportId the export's id
     * @param components the names from the pseudo root to the export, at least one
     */
    PseudoPathResolver(PathResolver inside, String exportId, List<String> components) {
        this.inside = Objects.requireNonNull(inside, "inside");
        this.exportId = Objects.requireNonNull(exportId, "exportId");
        this.components = List.copyOf(components);
        if (this.components.isEmpty()) {
            throw new IllegalArgumentException("an export at the pseudo root needs no pseudo path resolver");
        }
    }

    @Override
    public ResolvedPath resolve(Inode handle) throws IOException {
        return inside.resolve(handle);
    }

    @Override
    public ResolvedPath root() {
        return ResolvedPath.Pseudo.root();
    }

    @Override
    public ResolvedPath lookup(ResolvedPath dir, String name) throws IOException {
        if (!(dir instanceof ResolvedPath.Pseudo pseudo)) {
            return inside.lookup(dir, name);
        }
        List<String> next = new ArrayList<>(pseudo.components());
        next.add(name);
        if (next.equals(components)) {
            return ObjectPath.root(exportId);
        }
        if (next.size() < components.size() && components.subList(0, next.size()).equals(next)) {
            return new ResolvedPath.Pseudo(next);
        }
        return new ResolvedPath.Unresolvable("pseudo name " + String.join("/", next) + " does not lead to export "
                + exportId);
    }

    @Override
    public ResolvedPath parent(ResolvedPath dir) throws IOException {
        if (dir instanceof ObjectPath p && p.isRoot()) {
            return new ResolvedPath.Pseudo(components.subList(0, components.size() - 1));
        }
        if (dir instanceof ResolvedPath.Pseudo pseudo && !pseudo.components().isEmpty()) {
            return new ResolvedPath.Pseudo(pseudo.components().subList(0, pseudo.components().size() - 1));
        }
        return inside.parent(dir);
    }

    @Override
    public Optional<Inode> identify(ObjectPath path) throws IOException {
        return inside.identify(path);
    }

    @Override
    public Optional<Inode> identify(ObjectPath path, Inode parent) throws IOException {
        return inside.identify(path, parent);
    }

    @Override
    public boolean removalPending(ObjectPath path) throws IOException {
        return inside.removalPending(path);
    }

    @Override
    public boolean removalPending(ObjectPath path, Inode parent) throws IOException {
        return inside.removalPending(path, parent);
    }

    /** The pseudo directories never change: only what the resolver inside answers from. */
    @Override
    public long changeCount() {
        return inside.changeCount();
    }

    @Override
    public boolean unchangedSince(long count) {
        return inside.unchangedSince(count);
    }
}
