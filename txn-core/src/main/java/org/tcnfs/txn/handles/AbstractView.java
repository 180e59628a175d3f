package org.tcnfs.txn.handles;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.lmdbjava.CursorIterable;
import org.lmdbjava.Dbi;
import org.lmdbjava.KeyRange;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Txn;

/** The reads shared by snapshots and batches, over one LMDB transaction. */
abstract class AbstractView implements HandleView {
    final HandleTable table;
    final Txn<byte[]> txn;

    AbstractView(HandleTable table, Txn<byte[]> txn) {
        this.table = table;
        this.txn = txn;
    }

    /** Fails unless the view may still be used. */
    abstract void checkUsable();

    @Override
    public Optional<Node> node(Nfh handle) {
        checkUsable();
        try {
            byte[] value = table.nodes.get(txn, Codec.handle(handle));
            return value == null ? Optional.empty() : Optional.of(Codec.decode(handle, value));
        } catch (LmdbException e) {
            throw HandleTable.translate("reading node " + handle, e);
        }
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
        try {
            return Optional.ofNullable(side.dbi().get(txn, key));
        } catch (LmdbException e) {
            throw HandleTable.translate("reading " + side, e);
        }
    }

    @Override
    public void forEach(SideTable side, BiConsumer<byte[], byte[]> action) {
        checkUsable();
        try (CursorIterable<byte[]> entries = side.dbi().iterate(txn)) {
            for (CursorIterable.KeyVal<byte[]> entry : entries) {
                action.accept(entry.key(), entry.val());
            }
        } catch (LmdbException e) {
            throw HandleTable.translate("iterating " + side, e);
        }
    }

    /** Names of all entries of directory {@code parent} that the table holds, in byte order. */
    List<String> childNames(Nfh parent) {
        checkUsable();
        byte[] prefix = Codec.namePrefix(parent);
        List<String> result = new java.util.ArrayList<>();
        try (CursorIterable<byte[]> entries = table.names.iterate(txn, KeyRange.atLeast(prefix))) {
            for (CursorIterable.KeyVal<byte[]> entry : entries) {
                byte[] key = entry.key();
                if (!startsWith(key, prefix)) {
                    break;
                }
                result.add(Codec.nameOfKey(key));
            }
        } catch (LmdbException e) {
            throw HandleTable.translate("listing children of " + parent, e);
        }
        return result;
    }

    Optional<Nfh> handleAt(Dbi<byte[]> dbi, byte[] key) {
        checkUsable();
        try {
            byte[] value = dbi.get(txn, key);
            return value == null ? Optional.empty() : Optional.of(Codec.handle(value));
        } catch (LmdbException e) {
            throw HandleTable.translate("reading the handle table", e);
        }
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        if (key.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (key[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
