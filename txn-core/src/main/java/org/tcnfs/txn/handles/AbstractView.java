package org.tcnfs.txn.handles;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.lmdbjava.Dbi;

/** The reads shared by snapshots and batches, over one {@link Store}. */
abstract class AbstractView implements HandleView {
    final HandleTable table;
    final Store store;
    /**
     * The {@link HandleTable#directoryEpoch directory epoch} this view's rows belong to, or -1 when the
     * view may not use the table's cache of directory paths (a batch; a buffer that changed directories; a
     * directory change committed while the view began).
     */
    private final long cacheEpoch;
    /** Whether a {@link #path} of this view took a directory's path from the table's cache. */
    private boolean usedCachedPaths;

    AbstractView(HandleTable table, Store store) {
        this(table, store, -1);
    }

    AbstractView(HandleTable table, Store store, long cacheEpoch) {
        this.table = table;
        this.store = store;
        this.cacheEpoch = cacheEpoch;
    }

    /** Fails unless the view may still be used. */
    abstract void checkUsable();

    @Override
    public Optional<Node> node(Nfh handle) {
        checkUsable();
        byte[] value = store.get(table.nodes, Codec.handle(handle));
        return value == null ? Optional.empty() : Optional.of(Codec.decode(handle, value));
    }

    @Override
    public Optional<Nfh> child(Nfh parent, String name) {
        Link.checkName(name);
        return handleAt(table.names, Codec.nameKey(parent, name));
    }

    @Override
    public Optional<Nfh> byInode(String exportId, long ino) {
        HandleTable.checkExportId(exportId);
        return handleAt(table.inodes, Codec.inodeKey(exportId, ino));
    }

    @Override
    public Optional<Nfh> root(String exportId) {
        HandleTable.checkExportId(exportId);
        return handleAt(table.exports, Codec.exportKey(exportId));
    }

    @Override
    public Optional<List<String>> path(Nfh handle) {
        return path(handle, null);
    }

    @Override
    public Optional<List<String>> path(Node node) {
        return path(node.handle(), node);
    }

    /** The path of {@code handle}, whose node is {@code known} (null: read it). */
    private Optional<List<String>> path(Nfh handle, Node known) {
        ArrayDeque<String> names = new ArrayDeque<>();
        List<Nfh> walkedDirectories = cacheEpoch < 0 ? null : new ArrayList<>();
        List<Integer> walkedDepths = cacheEpoch < 0 ? null : new ArrayList<>();
        Nfh current = handle;
        for (int depth = 0; depth <= HandleTable.MAX_DEPTH; depth++) {
            if (walkedDirectories != null) {
                List<String> cached = table.cachedDirectoryPath(current, cacheEpoch);
                if (cached != null) {
                    usedCachedPaths = true;
                    return Optional.of(joined(cached, names, walkedDirectories, walkedDepths));
                }
            }
            Optional<Node> node = depth == 0 && known != null ? Optional.of(known) : node(current);
            if (node.isEmpty()) {
                return Optional.empty();
            }
            if (walkedDirectories != null && node.get().isDirectory()) {
                walkedDirectories.add(current);
                walkedDepths.add(depth);
            }
            if (node.get().isRoot()) {
                return Optional.of(joined(List.of(), names, walkedDirectories, walkedDepths));
            }
            Link link = firstStandingLink(current, node.get().links());
            names.addFirst(link.name());
            current = link.parent();
        }
        throw new HandleTableException("parent chain of " + handle + " exceeds " + HandleTable.MAX_DEPTH);
    }

    /**
     * The first of {@code links} whose name a plain REMOVE did not remove already: the row of a removed name may
     * stay a moment ({@link LateDurability#removes}), and a path through it would lead to nothing while the file
     * system reaches the object by its other name (a transaction would then back up nothing and lock the wrong
     * name). Only a hard-linked object has a choice.
     */
    private Link firstStandingLink(Nfh handle, List<Link> links) {
        if (links.size() > 1) {
            for (Link link : links) {
                if (!table.late().removes(link.parent(), link.name(), handle)) {
                    return link;
                }
            }
        }
        return links.get(0);
    }

    /**
     * {@code prefix} (the cached path where the walk stopped, or none at the root) followed by the names
     * {@code walked}; caches the path of each directory the walk read, the one {@code depth} levels above
     * the start having the path without the last {@code depth} names.
     */
    private List<String> joined(List<String> prefix, ArrayDeque<String> walked, List<Nfh> directories,
            List<Integer> depths) {
        String[] all = new String[prefix.size() + walked.size()];
        int i = 0;
        for (String name : prefix) {
            all[i++] = name;
        }
        for (String name : walked) {
            all[i++] = name;
        }
        List<String> path = List.of(all);
        if (directories != null) {
            for (int k = 0; k < directories.size(); k++) {
                table.cacheDirectoryPath(directories.get(k), cacheEpoch, path.subList(0, all.length - depths.get(k)));
            }
        }
        return path;
    }

    /**
     * Whether a path this view answered began with a directory's cached path, so that the rows of that directory and
     * of its ancestors were not read here.
     */
    boolean usedCachedPaths() {
        return usedCachedPaths;
    }

    @Override
    public Optional<byte[]> get(SideTable side, byte[] key) {
        checkUsable();
        return Optional.ofNullable(store.get(side.dbi(), key));
    }

    @Override
    public void forEach(SideTable side, BiConsumer<byte[], byte[]> action) {
        checkUsable();
        store.scan(side.dbi(), new byte[0], action);
    }

    /** Names of all entries of directory {@code parent} that the table holds, in byte order. */
    List<String> childNames(Nfh parent) {
        checkUsable();
        byte[] prefix = Codec.namePrefix(parent);
        List<String> result = new ArrayList<>();
        store.scan(table.names, prefix, (key, value) -> result.add(Codec.nameOfKey(key)));
        return result;
    }

    Optional<Nfh> handleAt(Dbi<byte[]> dbi, byte[] key) {
        checkUsable();
        byte[] value = store.get(dbi, key);
        return value == null ? Optional.empty() : Optional.of(Codec.handle(value));
    }
}
