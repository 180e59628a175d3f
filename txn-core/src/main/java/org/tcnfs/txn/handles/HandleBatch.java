package org.tcnfs.txn.handles;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.tcnfs.nfs4.vfs.FileType;

/**
 * A set of handle-table changes applied atomically: one LMDB write transaction. Nothing is visible to
 * others until {@link #commit()}, which is durable (under {@link HandleTable.Durability#FULL}) when it
 * returns; {@link #close()} without a commit rolls everything back, and calling it again is harmless.
 * Reads through the batch see its own changes.
 *
 * <p><b>Extra records in the same transaction.</b> The transaction layer keeps its own records in
 * {@link SideTable}s of the same LMDB environment and changes them with {@link #put(SideTable, byte[],
 * byte[])} and {@link #delete(SideTable, byte[])} inside the batch that applies its buffered handle
 * changes, so both commit or neither does. That is the only extension point.
 *
 * <p><b>Threading.</b> LMDB allows one write transaction at a time: {@link HandleTable#write()} blocks
 * while another batch is open. A batch belongs to the thread that opened it; use it, commit it and close
 * it on that thread, keep it short, and do not open a second batch (or a {@link SideTable}) on the same
 * thread while one is open (that would deadlock).
 *
 * <p><b>Invariants kept.</b> Every name row points to a node that lists that name, every node is found
 * by its (export, inode) key, a directory has one name, only export roots have none. Methods that would
 * break them throw {@link IllegalStateException} or {@link IllegalArgumentException}; after such a
 * failure the batch may still be committed with the changes made before it, or closed to roll back.
 */
public final class HandleBatch extends AbstractView implements AutoCloseable {

    private enum State { OPEN, COMMITTED, CLOSED }

    /** How a batch ends: an LMDB commit or abort, or a merge into a transaction's buffer or nothing. */
    interface Ending {
        /**
         * Makes the batch's changes take effect.
         *
         * @param directoriesChanged whether the batch wrote or removed the row of a directory (so cached
         *     directory paths may be wrong afterwards)
         */
        void commit(boolean directoriesChanged);

        /** Ends the batch; {@code committed} tells whether {@link #commit()} succeeded before. */
        void close(boolean committed);
    }

    private final Ending ending;
    private State state = State.OPEN;
    private boolean directoriesChanged;

    HandleBatch(HandleTable table, Store store, Ending ending) {
        super(table, store);
        this.ending = ending;
    }

    @Override
    void checkUsable() {
        if (state != State.OPEN) {
            throw new IllegalStateException("batch is " + state);
        }
    }

    /**
     * The root handle of export {@code exportId}, creating its node on first use. If the export's root
     * directory has another inode than recorded (it was replaced), the root keeps its handle and takes the
     * new inode.
     *
     * @param dev device of the export's root directory
     * @param ino inode of the export's root directory
     * @param generation its generation (see {@link Node#generation()})
     */
    public Nfh ensureRoot(String exportId, long dev, long ino, long generation) {
        HandleTable.checkExportId(exportId);
        Optional<Nfh> existing = root(exportId);
        if (existing.isPresent()) {
            Node node = requireNode(existing.get());
            if (node.ino() != ino || node.dev() != dev || node.generation() != generation) {
                byInode(exportId, ino).filter(h -> !h.equals(existing.get())).ifPresent(this::removeNode);
                rebind(existing.get(), dev, ino, generation);
            }
            return existing.get();
        }
        byInode(exportId, ino).ifPresent(this::removeNode);
        Nfh handle = freshHandle();
        Node node = new Node(handle, exportId, FileType.DIRECTORY, dev, ino, generation, List.of());
        putNode(node);
        put(table.inodes, Codec.inodeKey(exportId, ino), Codec.handle(handle));
        put(table.exports, Codec.exportKey(exportId), Codec.handle(handle));
        return handle;
    }

    /**
     * Registers a new object named {@code name} in directory {@code parent} under a fresh random handle.
     * The object belongs to the parent's export; {@code generation} is described at
     * {@link Node#generation()}.
     *
     * @throws IllegalStateException if the parent is unknown or not a directory, or the name or the inode
     *     is already registered
     */
    public Nfh register(Nfh parent, String name, FileType type, long dev, long ino, long generation) {
        Nfh handle = freshHandle();
        register(handle, parent, name, type, dev, ino, generation);
        return handle;
    }

    /**
     * Registers a new object under a handle chosen by the caller (the transaction layer hands out handles
     * before it commits them).
     *
     * @throws IllegalStateException if the handle is in use, the parent is unknown or not a directory, or
     *     the name or the inode is already registered
     */
    public void register(Nfh handle, Nfh parent, String name, FileType type, long dev, long ino,
            long generation) {
        Objects.requireNonNull(type, "type");
        Link link = new Link(parent, name);
        Node dir = requireDirectory(parent);
        if (node(handle).isPresent()) {
            throw new IllegalStateException("handle " + handle + " is in use");
        }
        requireFreeName(link);
        byte[] inodeKey = Codec.inodeKey(dir.exportId(), ino);
        if (handleAt(table.inodes, inodeKey).isPresent()) {
            throw new IllegalStateException("inode " + ino + " of export " + dir.exportId() + " is registered");
        }
        insert(handle, dir, link, type, dev, ino, generation, inodeKey);
    }

    /** Writes the node of a new object and its name and inode rows (after the caller made room for them). */
    private void insert(Nfh handle, Node dir, Link link, FileType type, long dev, long ino, long generation,
            byte[] inodeKey) {
        putNode(new Node(handle, dir.exportId(), type, dev, ino, generation, List.of(link)));
        put(table.names, Codec.nameKey(link.parent(), link.name()), Codec.handle(handle));
        put(table.inodes, inodeKey, Codec.handle(handle));
    }

    /**
     * Registers an object the caller has just made at {@code name} in {@code parent}, with the inode it has just
     * read from the disk, under a fresh random handle. Nothing else can be at that name or have that inode
     * number now, so whatever the table still holds for either is stale and is forgotten first ({@link #unlink},
     * {@link #removeNode}). Unlike {@link #register(Nfh, String, FileType, long, long, long) register}, this does
     * not fail when such a row shows up while it runs: a batch of a {@link TxnBuffer} reads the latest committed
     * rows one at a time, so a row another compound commits meanwhile (the row of an object it registered and
     * then removed, whose removal from the table comes later, {@link LateDurability}, and whose inode number the
     * new object got) may be absent at one read and present at the next.
     *
     * @return the new handle, and the handles forgotten
     * @throws IllegalStateException if the parent is unknown or not a directory, or the table gives the inode
     *     number to the parent or one of its ancestors (it disagrees with the disk)
     */
    public Registered registerReplacing(Nfh parent, String name, FileType type, long dev, long ino,
            long generation) {
        Objects.requireNonNull(type, "type");
        Link link = new Link(parent, name);
        Node dir = requireDirectory(parent);
        List<Nfh> forgotten = new ArrayList<>(2);
        unlink(parent, name).filter(Unlinked::nodeRemoved).ifPresent(gone -> forgotten.add(gone.handle()));
        byte[] inodeKey = Codec.inodeKey(dir.exportId(), ino);
        Optional<Nfh> holder = handleAt(table.inodes, inodeKey);
        if (holder.isPresent()) {
            if (isAncestorOrSelf(holder.get(), parent)) {
                throw new IllegalStateException("inode " + ino + " of export " + dir.exportId() + " belongs to "
                        + holder.get() + ", the directory " + parent + " or one above it");
            }
            removeNode(holder.get());
            forgotten.add(holder.get());
        }
        Nfh handle = freshHandle();
        insert(handle, dir, link, type, dev, ino, generation, inodeKey);
        return new Registered(handle, List.copyOf(forgotten));
    }

    /**
     * Adds the name {@code name} in {@code parent} to the (non-directory) object {@code handle}: a hard
     * link.
     *
     * @throws IllegalStateException if the object is unknown or a directory, the parent is unknown, not a
     *     directory or in another export, or the name is taken
     */
    public void addLink(Nfh handle, Nfh parent, String name) {
        Link link = new Link(parent, name);
        Node node = requireNode(handle);
        if (node.isDirectory()) {
            throw new IllegalStateException("a directory cannot have a second name");
        }
        Node dir = requireDirectory(parent);
        if (!dir.exportId().equals(node.exportId())) {
            throw new IllegalStateException("link across exports");
        }
        requireFreeName(link);
        List<Link> links = new ArrayList<>(node.links());
        links.add(link);
        putNode(node.withLinks(links));
        put(table.names, Codec.nameKey(parent, name), Codec.handle(handle));
    }

    /**
     * Removes the name {@code name} from directory {@code parent}. When it was the object's last name the
     * node goes too, and so, for a directory, do all entries the table still holds beneath it.
     *
     * @return what the name pointed to, or empty if the table did not know the name
     */
    public Optional<Unlinked> unlink(Nfh parent, String name) {
        Link.checkName(name);
        byte[] key = Codec.nameKey(parent, name);
        Optional<Nfh> target = handleAt(table.names, key);
        if (target.isEmpty()) {
            return Optional.empty();
        }
        delete(table.names, key);
        Optional<Node> node = node(target.get());
        if (node.isEmpty()) {
            return Optional.of(new Unlinked(target.get(), true));
        }
        Link link = new Link(parent, name);
        List<Link> rest = new ArrayList<>(node.get().links());
        rest.remove(link);
        if (rest.isEmpty()) {
            removeNode(target.get());
            return Optional.of(new Unlinked(target.get(), true));
        }
        putNode(node.get().withLinks(rest));
        return Optional.of(new Unlinked(target.get(), false));
    }

    /**
     * Renames {@code fromName} in {@code fromParent} to {@code toName} in {@code toParent}: the object keeps
     * its handle; for a directory this is one row, its descendants are untouched. A name already at the
     * target is unlinked first (see {@link #unlink}). Renaming a name onto itself, or onto another name of
     * the same object, changes nothing. If the table does not know the source name, only the target name
     * is removed.
     *
     * @throws IllegalArgumentException if a directory would move beneath itself
     * @throws IllegalStateException if the target directory is unknown, not a directory, or in another
     *     export
     */
    public Renamed rename(Nfh fromParent, String fromName, Nfh toParent, String toName) {
        Link from = new Link(fromParent, fromName);
        Link to = new Link(toParent, toName);
        Optional<Nfh> source = child(fromParent, fromName);
        Optional<Nfh> target = child(toParent, toName);
        if (from.equals(to) || (source.isPresent() && source.equals(target))) {
            return new Renamed(source, Optional.empty());
        }
        Node toDir = requireDirectory(toParent);
        Node moved = null;
        if (source.isPresent()) {
            moved = requireNode(source.get());
            if (!toDir.exportId().equals(moved.exportId())) {
                throw new IllegalStateException("rename across exports");
            }
            if (moved.isDirectory() && isAncestorOrSelf(source.get(), toParent)) {
                throw new IllegalArgumentException("cannot move directory " + source.get() + " beneath itself");
            }
        }
        if (target.isPresent() && isAncestorOrSelf(target.get(), fromParent)) {
            throw new IllegalArgumentException("cannot replace " + target.get() + ", an ancestor of the source");
        }
        Optional<Unlinked> replaced = target.isPresent() ? unlink(toParent, toName) : Optional.empty();
        if (moved != null) {
            delete(table.names, Codec.nameKey(fromParent, fromName));
            put(table.names, Codec.nameKey(toParent, toName), Codec.handle(moved.handle()));
            List<Link> links = new ArrayList<>(moved.links());
            int index = links.indexOf(from);
            if (index < 0) {
                throw new HandleTableException("node " + moved.handle() + " does not list its name " + from);
            }
            links.set(index, to);
            putNode(moved.withLinks(links));
        }
        return new Renamed(source, replaced);
    }

    /**
     * Changes the local identity of {@code handle} (the object was replaced by another inode and the handle
     * is to follow it, as the export root does).
     *
     * @throws IllegalStateException if the handle is unknown or another node holds that inode
     */
    public void rebind(Nfh handle, long dev, long ino, long generation) {
        Node node = requireNode(handle);
        byte[] newKey = Codec.inodeKey(node.exportId(), ino);
        Optional<Nfh> holder = handleAt(table.inodes, newKey);
        if (holder.isPresent() && !holder.get().equals(handle)) {
            throw new IllegalStateException("inode " + ino + " belongs to " + holder.get());
        }
        byte[] oldKey = Codec.inodeKey(node.exportId(), node.ino());
        if (handle.equals(handleAt(table.inodes, oldKey).orElse(null))) {
            delete(table.inodes, oldKey);
        }
        putNode(node.withInode(dev, ino, generation));
        put(table.inodes, newKey, Codec.handle(handle));
    }

    /**
     * Forgets {@code handle} entirely: its node, all its names, its inode key, its export-root entry and,
     * for a directory, everything the table holds beneath it. Unknown handles are ignored.
     */
    public void removeNode(Nfh handle) {
        Deque<Nfh> pending = new ArrayDeque<>();
        pending.push(handle);
        while (!pending.isEmpty()) {
            Nfh current = pending.pop();
            Optional<Node> found = node(current);
            if (found.isEmpty()) {
                continue;
            }
            Node node = found.get();
            byte[] handleBytes = Codec.handle(current);
            for (Link link : node.links()) {
                byte[] key = Codec.nameKey(link.parent(), link.name());
                if (current.equals(handleAt(table.names, key).orElse(null))) {
                    delete(table.names, key);
                }
            }
            byte[] inodeKey = Codec.inodeKey(node.exportId(), node.ino());
            if (current.equals(handleAt(table.inodes, inodeKey).orElse(null))) {
                delete(table.inodes, inodeKey);
            }
            if (node.isRoot() && current.equals(root(node.exportId()).orElse(null))) {
                delete(table.exports, Codec.exportKey(node.exportId()));
            }
            delete(table.nodes, handleBytes);
            if (node.isDirectory()) {
                directoriesChanged = true;
                for (String name : childNames(current)) {
                    Optional<Unlinked> child = unlinkRowOnly(current, name);
                    child.filter(Unlinked::nodeRemoved).ifPresent(gone -> pending.push(gone.handle()));
                }
            }
        }
    }

    /** Stores {@code value} under {@code key} in a side table, replacing any value. */
    public void put(SideTable side, byte[] key, byte[] value) {
        Objects.requireNonNull(side, "side");
        put(side.dbi(), key, value);
    }

    /** Removes {@code key} from a side table; whether it was there. */
    public boolean delete(SideTable side, byte[] key) {
        Objects.requireNonNull(side, "side");
        return delete(side.dbi(), key);
    }

    /**
     * Makes the changes durable and visible.
     *
     * @throws HandleTable.MapFullException if the table's map is full (nothing is committed)
     */
    public void commit() {
        checkUsable();
        ending.commit(directoriesChanged);
        state = State.COMMITTED;
    }

    /** Ends the batch, rolling back unless {@link #commit()} succeeded; calling it again does nothing. */
    @Override
    public void close() {
        if (state != State.CLOSED) {
            boolean committed = state == State.COMMITTED;
            state = State.CLOSED;
            ending.close(committed);
        }
    }

    /**
     * Removes one name row and the link from its node, removing the node (without descending) if that was
     * its last name; the caller descends.
     */
    private Optional<Unlinked> unlinkRowOnly(Nfh parent, String name) {
        byte[] key = Codec.nameKey(parent, name);
        Optional<Nfh> target = handleAt(table.names, key);
        if (target.isEmpty()) {
            return Optional.empty();
        }
        delete(table.names, key);
        Optional<Node> node = node(target.get());
        if (node.isEmpty()) {
            return Optional.empty();
        }
        List<Link> rest = new ArrayList<>(node.get().links());
        rest.remove(new Link(parent, name));
        if (rest.isEmpty()) {
            return Optional.of(new Unlinked(target.get(), true));
        }
        putNode(node.get().withLinks(rest));
        return Optional.of(new Unlinked(target.get(), false));
    }

    private boolean isAncestorOrSelf(Nfh ancestor, Nfh of) {
        Nfh current = of;
        for (int depth = 0; depth <= HandleTable.MAX_DEPTH; depth++) {
            if (current.equals(ancestor)) {
                return true;
            }
            Optional<Node> node = node(current);
            if (node.isEmpty() || node.get().isRoot()) {
                return false;
            }
            current = node.get().links().get(0).parent();
        }
        throw new HandleTableException("parent chain of " + of + " exceeds " + HandleTable.MAX_DEPTH);
    }

    private Nfh freshHandle() {
        while (true) {
            Nfh handle = Nfh.random();
            if (node(handle).isEmpty()) {
                return handle;
            }
        }
    }

    private Node requireNode(Nfh handle) {
        return node(handle).orElseThrow(() -> new IllegalStateException("unknown handle " + handle));
    }

    private Node requireDirectory(Nfh handle) {
        Node node = requireNode(handle);
        if (!node.isDirectory()) {
            throw new IllegalStateException(handle + " is not a directory");
        }
        return node;
    }

    private void requireFreeName(Link link) {
        if (child(link.parent(), link.name()).isPresent()) {
            throw new IllegalStateException("name \"" + link.name() + "\" in " + link.parent() + " is taken");
        }
    }

    /** Records that the batch changes a directory's row without one of the methods above (a whole buffer). */
    void markDirectoriesChanged() {
        directoriesChanged = true;
    }

    private void putNode(Node node) {
        if (node.isDirectory()) {
            directoriesChanged = true;
        }
        put(table.nodes, Codec.handle(node.handle()), Codec.encode(node));
    }

    private void put(org.lmdbjava.Dbi<byte[]> dbi, byte[] key, byte[] value) {
        checkUsable();
        store.put(dbi, key, value);
    }

    private boolean delete(org.lmdbjava.Dbi<byte[]> dbi, byte[] key) {
        checkUsable();
        return store.delete(dbi, key);
    }

    /**
     * What {@link #unlink} removed.
     *
     * @param handle the handle the name pointed to
     * @param nodeRemoved whether that was its last name, so the handle is gone
     */
    public record Unlinked(Nfh handle, boolean nodeRemoved) {
        public Unlinked {
            Objects.requireNonNull(handle, "handle");
        }
    }

    /**
     * What {@link #registerReplacing} did.
     *
     * @param handle the new object's handle
     * @param forgotten the handles of the stale nodes it forgot (at the name, or with the inode number)
     */
    public record Registered(Nfh handle, List<Nfh> forgotten) {
        public Registered {
            Objects.requireNonNull(handle, "handle");
            forgotten = List.copyOf(forgotten);
        }
    }

    /**
     * What {@link #rename} did.
     *
     * @param moved the handle that now has the new name, if the table knew the source
     * @param replaced the name that was at the target, if any
     */
    public record Renamed(Optional<Nfh> moved, Optional<Unlinked> replaced) {
        public Renamed {
            Objects.requireNonNull(moved, "moved");
            Objects.requireNonNull(replaced, "replaced");
        }
    }
}
