package org.tcnfs.txn;

import java.util.Optional;
import java.util.Set;
import org.tcnfs.nfs4.vfs.Inode;
import org.tcnfs.txn.plan.ObjectPath;
import org.tcnfs.txn.plan.PathResolver;
import org.tcnfs.txn.plan.ResolvedPath;

/**
 * A {@link PathResolver} for planner tests: the root of one export holding a fixed set of names, each with a handle
 * derived from its first letter; no handle resolves (the compounds under test start from PUTROOTFH).
 */
final class RootNamesResolver implements PathResolver {
    private final String exportId;
    private final Set<String> names;

    RootNamesResolver(String exportId, Set<String> names) {
        this.exportId = exportId;
        this.names = Set.copyOf(names);
    }

    @Override
    public ResolvedPath resolve(Inode handle) {
        return new ResolvedPath.Unresolvable("no handles in this test");
    }

    @Override
    public ResolvedPath root() {
        return ObjectPath.root(exportId);
    }

    @Override
    public Optional<Inode> identify(ObjectPath path) {
        if (path.components().size() != 1 || !names.contains(path.components().get(0))) {
            return Optional.empty();
        }
        byte[] bytes = new byte[16];
        bytes[0] = 0x7f;
        bytes[1] = (byte) path.components().get(0).charAt(0);
        return Optional.of(Inode.of(bytes));
    }
}
