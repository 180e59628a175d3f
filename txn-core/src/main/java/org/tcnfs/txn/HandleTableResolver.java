package org.tcnfs.txn;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.txn.handles.HandleSnapshot;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.HandleTableException;
import org.tcnfs.txn.handles.Nfh;
import org.tcnfs.txn.handles.Node;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.PathResolver;
import org.tcnfs.txn.plan.ResolvedPath;

/**
 * A {@link PathResolver} over the LMDB handle table for a server whose only export is one directory at
 * "/" (no pseudo directories): handles are the table's {@link Nfh}s, PUTROOTFH leads to that export's root.
 * Handles of other exports are {@link ResolvedPath.Unresolvable}.
 *
 * <p>Thread-safe (the table is); holds no state of its own.
 */
public final class HandleTableResolver implements PathResolver {
    private final HandleTable handles;
    private final String exportId;

    /**
     * @param handles the server's handle table
     * @param exportId the id of the export at "/" (its {@code LocalFileSystem.exportId()})
     */
    public HandleTableResolver(HandleTable handles, String exportId) {
        this.handles = Objects.requireNonNull(handles, "handles");
        this.exportId = Objects.requireNonNull(exportId, "exportId");
    }

    @Override
    public ResolvedPath resolve(Inode handle) throws IOException {
        Nfh nfh;
        try {
            nfh = Nfh.of(handle.toBytes());
        } catch (IllegalArgumentException e) {
            return new ResolvedPath.Unresolvable("malformed handle: " + e.getMessage());
        }
        try (HandleSnapshot snapshot = handles.read()) {
            Optional<Node> node = snapshot.node(nfh);
            if (node.isEmpty()) {
                return new ResolvedPath.Unresolvable("unknown handle " + nfh);
            }
            if (!node.get().exportId().equals(exportId)) {
                return new ResolvedPath.Unresolvable("handle " + nfh + " of export " + node.get().exportId());
            }
            if (node.get().isRoot()) {
                return ObjectPath.root(exportId);
            }
            Optional<List<String>> names = snapshot.path(node.get());
            return names.<ResolvedPath>map(n -> ObjectPath.of(exportId, n))
                    .orElseGet(() -> new ResolvedPath.Unresolvable("no path for handle " + nfh));
        } catch (HandleTableException e) {
            throw new IOException("resolving " + nfh + ": " + e.getMessage(), e);
        }
    }

    @Override
    public ResolvedPath root() {
        return ObjectPath.root(exportId);
    }

    @Override
    public Optional<Inode> identify(ObjectPath path) throws IOException {
        try (HandleSnapshot snapshot = handles.read()) {
            Optional<Nfh> at = snapshot.root(exportId);
            for (String name : path.components()) {
                if (at.isEmpty()) {
                    return Optional.empty();
                }
                at = snapshot.child(at.get(), name);
            }
            return at.map(h -> Inode.of(h.toBytes()));
        } catch (HandleTableException e) {
            throw new IOException("identifying " + path + ": " + e.getMessage(), e);
        }
    }

    /** The handle table's {@link HandleTable#changeCount()}: the resolver answers from nothing else. */
    @Override
    public long changeCount() {
        return handles.changeCount();
    }

    @Override
    public boolean unchangedSince(long count) {
        return handles.unchangedSince(count);
    }

    /** A plain REMOVE's row goes a moment after the name ({@code HandleTable.unlinkAfterSync}). */
    @Override
    public boolean removalPending(ObjectPath path) throws IOException {
        List<String> components = path.components();
        if (components.isEmpty()) {
            return false;
        }
        try (HandleSnapshot snapshot = handles.read()) {
            Optional<Nfh> at = snapshot.root(exportId);
            Nfh parent = null;
            for (String name : components) {
                if (at.isEmpty()) {
                    return false;
                }
                parent = at.get();
                at = snapshot.child(parent, name);
            }
            return at.isPresent() && handles.late().removes(parent, components.get(components.size() - 1), at.get());
        } catch (HandleTableException e) {
            throw new IOException("looking up " + path + ": " + e.getMessage(), e);
        }
    }
}
