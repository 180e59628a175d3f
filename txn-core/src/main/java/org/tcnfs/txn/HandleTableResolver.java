package org.tcnfs.txn;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.txn.handles.HandleSnapshot;
import org.tcnfs.txn.handles.HandleTable;
import org.tcnfs.txn.handles.HandleTableException;
import org.tcnfs.txn.handles.Link;
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
 * <p>{@link #resolve} answers from the table's cache of reads ({@link HandleTable#cachedRead}) while the table did not
 * change since the answer was read: what the planner of each compound asks of the handles it PUTFHs.
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
        try {
            return handles.cachedRead(new Resolution(exportId, nfh), snapshot -> resolve(snapshot, nfh));
        } catch (HandleTableException e) {
            throw new IOException("resolving " + nfh + ": " + e.getMessage(), e);
        }
    }

    /** What {@link #resolve(Inode)} answers for {@code handle} in export {@code exportId}: a key of the table's cache. */
    private record Resolution(String exportId, Nfh handle) {
    }

    private ResolvedPath resolve(HandleSnapshot snapshot, Nfh nfh) {
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
        if (lostEveryName(node.get())) {
            // as once the background flush has removed its rows: the object has no name (a file a client holds
            // open: the plan stops at its PUTFH, CompoundLocker refuses a transaction and locks a plain compound's
            // exports whole)
            return new ResolvedPath.Unresolvable("handle " + nfh + " lost its last name (its row waits for the "
                    + "background flush)");
        }
        Optional<List<String>> names = snapshot.path(node.get());
        return names.<ResolvedPath>map(n -> ObjectPath.of(exportId, n))
                .orElseGet(() -> new ResolvedPath.Unresolvable("no path for handle " + nfh));
    }

    /**
     * Whether every name the table has for {@code node} was removed by a plain REMOVE whose row removal waits in the
     * table's {@link org.tcnfs.txn.handles.LateDurability} queue (up to a second): the names are gone on disk. A path
     * through one of them would plan the compound on a name that holds nothing (or another object), where a
     * transaction's undo would back nothing up. An object with a name left is reached through it ({@code
     * AbstractView.firstStandingLink}).
     */
    private boolean lostEveryName(Node node) {
        for (Link link : node.links()) {
            if (!handles.late().removes(link.parent(), link.name(), node.handle())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public ResolvedPath root() {
        return ObjectPath.root(exportId);
    }

    @Override
    public Optional<Inode> identify(ObjectPath path) throws IOException {
        return identify(path, null);
    }

    /** Looks the last name up in {@code parent} when it is given (one read), else walks from the export root. */
    @Override
    public Optional<Inode> identify(ObjectPath path, Inode parent) throws IOException {
        try (HandleSnapshot snapshot = handles.read()) {
            return find(snapshot, path, parent).handle().map(h -> Inode.of(h.toBytes()));
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
        return removalPending(path, null);
    }

    @Override
    public boolean removalPending(ObjectPath path, Inode parent) throws IOException {
        if (path.isRoot()) {
            return false;
        }
        try (HandleSnapshot snapshot = handles.read()) {
            Found found = find(snapshot, path, parent);
            return found.handle().isPresent()
                    && handles.late().removes(found.parent(), path.name().orElseThrow(), found.handle().get());
        } catch (HandleTableException e) {
            throw new IOException("looking up " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * What the table names at {@code path}: its handle, and its parent directory's (null for the root or when the
     * walk ends before it).
     */
    private record Found(Nfh parent, Optional<Nfh> handle) {
        static final Found NONE = new Found(null, Optional.empty());
    }

    /**
     * Looks {@code path} up in {@code snapshot}: its last name in {@code parentHint} when given (a handle that
     * {@link #resolve} answered with the path's parent directory while the same compound was planned: if that
     * changed since, so did the table, and the plan is checked again), else name by name from the export root.
     */
    private Found find(HandleSnapshot snapshot, ObjectPath path, Inode parentHint) {
        if (parentHint != null && !path.isRoot()) {
            Nfh parent = Nfh.of(parentHint.toBytes());
            return new Found(parent, snapshot.child(parent, path.name().orElseThrow()));
        }
        Nfh parent = null;
        Optional<Nfh> at = snapshot.root(exportId);
        for (String name : path.components()) {
            if (at.isEmpty()) {
                return Found.NONE;
            }
            parent = at.get();
            at = snapshot.child(parent, name);
        }
        return new Found(parent, at);
    }
}
