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

    AbstractView(HandleTable table, Store store) {
        this.table = table;
        this.store = store;
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
        ArrayDeque<String> names = new ArrayDeque<>();
        Nfh current = handle;
        for (int depth = 0; depth <= HandleTable.MAX_DEPTH; depth++) {
            Optional<Node> node = node(current);
            if (node.isEmpty()) {
                return Optional.empty();
            }
            if (node.get().isRoot()) {
                return Optional.of(List.copyOf(names));
            }
            Link link = node.get().links().get(0);
            names.addFirst(link.name());
            current = link.parent();
        }
        throw new HandleTableException("parent chain of " + handle + " exceeds " + HandleTable.MAX_DEPTH);
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
