package org.tcnfs.txn.handles;

import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * Read access to the handle table as of one LMDB transaction: a {@link HandleSnapshot} (read only) or a
 * {@link HandleBatch} (which also sees its own uncommitted changes). All methods throw
 * {@link HandleTableException} if the storage fails.
 */
public interface HandleView {

    /** The node of {@code handle}, if the table has one. */
    Optional<Node> node(Nfh handle);

    /** The handle named {@code name} in directory {@code parent}, if known. */
    Optional<Nfh> child(Nfh parent, String name);

    /** The handle of inode {@code ino} in export {@code exportId}, if known. */
    Optional<Nfh> byInode(String exportId, long ino);

    /** The root handle of export {@code exportId}, if it was created. */
    Optional<Nfh> root(String exportId);

    /**
     * The names leading from the export root to {@code handle} (empty list for the root itself), following
     * the first link of each node that no plain REMOVE removed on disk already (a hard-linked file whose first
     * name is gone while its row waits for {@link LateDurability#unlinkLater}; a node whose every link is so
     * removed follows its first); empty if the handle or one of its ancestors is unknown.
     *
     * @throws HandleTableException if the chain of parents is longer than {@link HandleTable#MAX_DEPTH}
     *     (a cycle, which the table never creates)
     */
    Optional<List<String>> path(Nfh handle);

    /**
     * {@link #path(Nfh)} of {@code node}'s handle, for a node this view has just read: its row is not read again.
     */
    Optional<List<String>> path(Node node);

    /** The path to {@code link}: the path of its parent followed by its name; empty if unknown. */
    default Optional<List<String>> path(Link link) {
        return path(link.parent()).map(names -> {
            String[] all = names.toArray(new String[names.size() + 1]);
            all[names.size()] = link.name();
            return List.of(all);
        });
    }

    /** The value stored under {@code key} in a side table (a new array), if any. */
    Optional<byte[]> get(SideTable table, byte[] key);

    /** Calls {@code action} with each key and value of a side table in key order (unsigned bytes). */
    void forEach(SideTable table, BiConsumer<byte[], byte[]> action);
}
